export interface DetectedEntity {
  entity: string;
  start: number;
  /** Exclusive, UTF-16 code units. */
  end: number;
  probability: number;
}
