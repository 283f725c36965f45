import { randomBytes } from 'node:crypto';
import { ServerResponse } from 'node:http';
import { HttpJsonServer, RecordedRequest, sendJson } from '@platform/sandbox';

/**
 * The "outside API" the hosted demo bot's http node calls: `GET /offers` with `Authorization: Bearer
 * <token>` answers three offers as JSON; a wrong or missing token is a 401. It runs on loopback beside
 * `up` (DEMO_API_PORT, 3300), and its token reaches the bot only through the bot's secret store
 * (`{{secrets.DEMO_API_TOKEN}}`).
 */
export class DemoOffersApi extends HttpJsonServer {
  /** A token of this run: the bot's secret store holds it, nothing else does. */
  readonly token = randomBytes(18).toString('base64url');

  constructor(private readonly log?: (line: string) => void) {
    super();
    this.record = false;
  }

  protected handle(req: RecordedRequest, res: ServerResponse): void {
    const path = req.path.split('?')[0];
    if (req.method !== 'GET' || path !== '/offers') return sendJson(res, 404, { error: 'not found' });
    if (req.headers.authorization !== `Bearer ${this.token}`) {
      this.log?.('GET /offers refused: wrong token');
      return sendJson(res, 401, { error: 'unauthorized' });
    }
    this.log?.('GET /offers');
    sendJson(res, 200, {
      headline: 'Three offers from the local offers API, fetched by an http node:',
      offers: [
        { id: 'o1', title: 'Summer hat', price: '€19, 20% off' },
        { id: 'o2', title: 'Beach towel', price: '€25, 2 for 1' },
        { id: 'o3', title: 'Sunglasses', price: '€49, free case' },
      ],
    });
  }
}
