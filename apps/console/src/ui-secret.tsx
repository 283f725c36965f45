import { useRef, useState } from 'preact/hooks';

/** A secret shown once (an API key, a client secret, a webhook signing secret), with a copy button. */
export function ShownOnce({ title, label, value, testId, onDismiss }: { title: string; label: string; value: string; testId: string; onDismiss: () => void }) {
  const [copied, setCopied] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('Copied to the clipboard.');
    } catch {
      input.current?.select();
      setCopied('Copying is blocked here: the value is selected, press Ctrl+C (⌘C).');
    }
  };
  return (
    <article class="new-key" aria-labelledby={`${testId}-title`}>
      <h2 id={`${testId}-title`}>{title}</h2>
      <p class="notice warning" role="alert">
        <strong>Copy it now. It will not be shown again:</strong> only its hash or ciphertext is stored.
      </p>
      <div role="group" class="copy-row">
        <input ref={input} readOnly aria-label={label} data-testid={testId} value={value} onFocus={(e) => (e.target as HTMLInputElement).select()} />
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      {copied && <p role="status">{copied}</p>}
      <button type="button" class="secondary" onClick={onDismiss}>
        I have stored it
      </button>
    </article>
  );
}
