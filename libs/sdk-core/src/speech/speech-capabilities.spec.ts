import { speechCapabilities, SPEECH_UNSUPPORTED_REASON } from './speech-capabilities';

describe('speechCapabilities', () => {
  it('reports both speech features unsupported in the web view, with the reason', () => {
    const caps = speechCapabilities({ enableSpeech: true });
    expect(caps.textToSpeech).toEqual({ supported: false, reason: SPEECH_UNSUPPORTED_REASON });
    expect(caps.speechToText).toEqual({ supported: false, enabled: true, reason: SPEECH_UNSUPPORTED_REASON });
    expect(SPEECH_UNSUPPORTED_REASON).toContain('web view lacks the speech capability');
  });

  it('reports speech-to-text switched off when enableSpeech is false or absent', () => {
    for (const caps of [speechCapabilities({ enableSpeech: false }), speechCapabilities({})]) {
      expect(caps.speechToText.enabled).toBe(false);
      expect(caps.speechToText.reason).toContain('enableSpeech: false');
    }
  });
});
