import { useState } from 'react';
import { Button } from './kit.tsx';

/** Copies `text`; falls back to selecting it when the clipboard is not available (plain http). */
export function CopyButton({ text, label = 'Copy', targetId }: { text: string; label?: string; targetId?: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      const input = targetId ? (document.getElementById(targetId) as HTMLInputElement | null) : null;
      input?.select();
      setCopied('no');
    }
    window.setTimeout(() => setCopied(null), 2500);
  };
  return (
    <Button size="sm" onClick={() => void copy()} aria-live="polite">
      {copied === 'yes' ? 'Copied' : copied === 'no' ? 'Selected: press Ctrl+C' : label}
    </Button>
  );
}
