/** The QR encoder's factory (qrcode-generator): passed in, so the console loads it lazily and a test can encode the same text. */
export type QrEncoder = typeof import('qrcode-generator');

/** The dark modules of `text`'s QR code (error correction M) as one SVG path: one unit per module, a 4-module quiet zone. */
export function qrPath(qrcode: QrEncoder, text: string): { size: number; d: string } {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  const n = qr.getModuleCount();
  const parts: string[] = [];
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (qr.isDark(r, c)) parts.push(`M${c + 4} ${r + 4}h1v1h-1z`);
  return { size: n + 8, d: parts.join('') };
}
