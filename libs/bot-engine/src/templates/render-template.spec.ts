import { TemplateError } from './template-error.js';
import { renderChatText, renderHeader, renderJsonBody, renderTemplate, renderUrl } from './render-template.js';

const scope = {
  variables: {
    profile: { userName: 'Ana', age: 30, vip: true, tags: ['a', 'b'], inner: { x: 1 } },
    tricky: '{{variables.secret}}',
    secret: 'hidden',
    control: 'a\u0000b\u0007c\td\ne\r\u001bf\u007fg\u009bh',
    path: '../admin?x=1&y=2#frag',
    evil: 'x\r\nSet-Cookie: a=b',
    quote: 'he said "hi"\\',
    nothing: null,
  },
  payload: '{"JourneySlug":"promo"}',
  secrets: { TOKEN: 'tok' },
};

describe('templates', () => {
  it('reads paths, with whitespace inside the braces', () => {
    expect(renderTemplate('Hi {{variables.profile.userName}}, {{ variables.profile.age }} {{variables.profile.vip}}', scope, (v) => v)).toBe('Hi Ana, 30 true');
  });

  it('renders objects and arrays as JSON, missing paths and null as empty', () => {
    expect(renderTemplate('{{variables.profile.inner}}|{{variables.profile.tags}}|{{variables.profile.tags[1]}}|{{variables.profile.tags.0}}', scope, (v) => v)).toBe('{"x":1}|["a","b"]|b|a');
    expect(renderTemplate('[{{variables.nope}}][{{variables.profile.nope.deeper}}][{{variables.nothing}}]', scope, (v) => v)).toBe('[][][]');
  });

  it('reads the payload as its JSON string, and secrets only when given', () => {
    expect(renderTemplate('{{payload}}', scope, (v) => v)).toBe('{"JourneySlug":"promo"}');
    expect(renderTemplate('{{secrets.TOKEN}}', scope, (v) => v)).toBe('tok');
    expect(renderTemplate('[{{secrets.TOKEN}}]', { variables: {}, payload: null }, (v) => v)).toBe('[]');
  });

  it('never evaluates an inserted value again', () => {
    expect(renderChatText('{{variables.tricky}}', scope, 4096)).toBe('{{variables.secret}}');
  });

  it('leaves what is not a path as written, and reads no prototype', () => {
    expect(renderTemplate('{{ 1 + 1 }} {{variables.profile.constructor}} {{variables.profile.toString}}', scope, (v) => v)).toBe('{{ 1 + 1 }} {{variables.profile.constructor}} ');
  });

  it('chat text: strips control characters from inserted values except tab and newline, and bounds the length', () => {
    expect(renderChatText('[{{variables.control}}]', scope, 4096)).toBe('[abc\td\nefgh]');
    expect(renderChatText('literal\u0007 stays', scope, 4096)).toBe('literal\u0007 stays');
    expect(renderChatText('{{variables.profile.userName}}{{variables.profile.userName}}', scope, 4)).toBe('AnaA');
    expect(renderChatText('😀😀', scope, 3)).toBe('😀');
  });

  it('URLs: percent-encodes each inserted value, and must stay http(s)', () => {
    expect(renderUrl('https://api.example.com/u/{{variables.path}}?q={{variables.profile.userName}}', scope)).toBe('https://api.example.com/u/..%2Fadmin%3Fx%3D1%26y%3D2%23frag?q=Ana');
    expect(() => renderUrl('{{variables.path}}', scope)).toThrow(TemplateError);
    expect(() => renderUrl('javascript:alert({{variables.secret}})', scope)).toThrow('the URL is not an http(s) URL once rendered');
  });

  it('headers: removes CR and LF from inserted values', () => {
    expect(renderHeader('Bearer {{variables.evil}}', scope)).toBe('Bearer xSet-Cookie: a=b');
  });

  it('JSON bodies: string leaves are rendered and the whole JSON-encoded, so a value cannot break out', () => {
    const body = { text: 'Q: {{variables.quote}}', list: ['{{variables.profile.age}}', 7, null, true], nested: { who: '{{variables.profile.userName}}' } };
    const rendered = renderJsonBody(body, scope);
    expect(JSON.parse(rendered)).toEqual({ text: 'Q: he said "hi"\\', list: ['30', 7, null, true], nested: { who: 'Ana' } });
    expect(renderJsonBody('{{variables.quote}}', scope)).toBe(JSON.stringify('he said "hi"\\'));
  });
});
