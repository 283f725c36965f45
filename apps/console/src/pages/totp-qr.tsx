import { useEffect, useState } from 'preact/hooks';
import { type QrEncoder, qrPath } from '../qr-path.js';

/** The QR encoder (qrcode-generator, about 7 KB gzipped) is a chunk of its own, fetched when an enrolment is shown: not in the first load. */
let encoder: Promise<QrEncoder> | null = null;
const loadEncoder = () => (encoder ??= import('qrcode-generator').then((m) => ((m as unknown as { default?: QrEncoder }).default ?? m) as QrEncoder));

/**
 * The otpauth:// link as a QR code for the authenticator app to scan: drawn as SVG elements (no inline
 * style or markup, which the console's CSP refuses), black on white whatever the theme, so phones read it.
 * Its text alternative says what it is; the key for typing by hand is beside it on the page.
 */
export function TotpQr({ uri }: { uri: string }) {
  const [qr, setQr] = useState<{ size: number; d: string } | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    loadEncoder().then(
      (q) => live && setQr(qrPath(q, uri)),
      () => live && setFailed(true),
    );
    return () => void (live = false);
  }, [uri]);
  if (failed) return <p class="muted">The QR code could not be loaded: type the key below into the app instead.</p>;
  if (!qr) return <p aria-busy="true">Drawing the QR code…</p>;
  return (
    <svg
      class="totp-qr"
      data-testid="totp-qr"
      role="img"
      aria-label="QR code of the setup link: scan it with your authenticator app"
      viewBox={`0 0 ${qr.size} ${qr.size}`}
      shape-rendering="crispEdges"
    >
      <rect width={qr.size} height={qr.size} fill="#ffffff" />
      <path d={qr.d} fill="#000000" />
    </svg>
  );
}
