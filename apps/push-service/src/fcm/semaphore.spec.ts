import { Semaphore } from './semaphore.js';

describe('Semaphore', () => {
  it('never lets more than the limit in', async () => {
    const sem = new Semaphore(3);
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        await sem.acquire();
        inside++;
        most = Math.max(most, inside);
        await new Promise((r) => setImmediate(r));
        inside--;
        sem.release();
      }),
    );
    expect(most).toBe(3);
    expect(sem.inUse).toBe(0);
  });
});
