import type { Policy, PolicySettings } from '../core/policy.ts';

export const IMAGE_POLICY_ID = 'image';

/**
 * The `image` result's settings entry. Images are scored by the media stage, not by this policy:
 * it is registered so that a channel or a request can list `{id: "image", flag, threshold}` like
 * any policy (validated, stored, shown), and the pipeline reads that entry for the image labels.
 * Without an entry the image labels flag at 0.5.
 */
export const imagePolicy: Policy = {
  id: IMAGE_POLICY_ID,
  type: 'classifier',
  severity: 0.9,
  defaultThreshold: 0.5,
  evaluate: () => ({ probability: 0 }),
};

export interface ImagePolicySettings {
  /** false: the labels are reported but never flag (analyse only). */
  flag: boolean;
  threshold: number;
}

export function imageSettingsOf(settings: readonly PolicySettings[]): ImagePolicySettings {
  const entry = settings.find((s) => s.id === IMAGE_POLICY_ID);
  return { flag: entry?.flag ?? true, threshold: entry?.threshold ?? imagePolicy.defaultThreshold };
}
