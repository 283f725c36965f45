import { checkedType, safeFileName, sniffPicture } from './file-type.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0]);
const WEBP = Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1');

describe('file types the chat accepts', () => {
  it('knows pictures by their signature', () => {
    expect(sniffPicture(PNG)).toBe('image/png');
    expect(sniffPicture(JPEG)).toBe('image/jpeg');
    expect(sniffPicture(Buffer.from('GIF89a'))).toBe('image/gif');
    expect(sniffPicture(WEBP)).toBe('image/webp');
    expect(sniffPicture(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
  });

  it('accepts a file only when its bytes are what it claims to be', () => {
    expect(checkedType('image/png', PNG)).toBe('image/png');
    expect(checkedType('IMAGE/PNG; x=1', PNG)).toBe('image/png');
    expect(checkedType('image/png', JPEG)).toBeUndefined(); // a JPEG called PNG
    expect(checkedType('image/png', Buffer.from('<html><script>alert(1)</script>'))).toBeUndefined();
    expect(checkedType('application/pdf', Buffer.from('%PDF-1.7\n'))).toBe('application/pdf');
    expect(checkedType('application/pdf', Buffer.from('MZ\x90'))).toBeUndefined();
    expect(checkedType('text/plain', Buffer.from('héllo\n'))).toBe('text/plain');
    expect(checkedType('text/plain', Buffer.from([0x68, 0, 0x69]))).toBeUndefined();
    expect(checkedType('text/plain', Buffer.from([0xc3, 0x28]))).toBeUndefined(); // not UTF-8
    for (const type of ['image/svg+xml', 'text/html', 'application/javascript', 'application/octet-stream', undefined]) expect(checkedType(type, PNG)).toBeUndefined();
  });

  it('keeps a file name without its path, control or quote characters', () => {
    expect(safeFileName('C:\\Users\\ada\\photo "1".png', 'file')).toBe('photo 1.png');
    expect(safeFileName('../../etc/passwd', 'file')).toBe('passwd');
    expect(safeFileName('a\r\nb.txt', 'file')).toBe('ab.txt');
    expect(safeFileName('..', 'file')).toBe('file');
    expect(safeFileName(undefined, 'upload.png')).toBe('upload.png');
    expect(safeFileName('x'.repeat(300), 'f')).toHaveLength(120);
  });
});
