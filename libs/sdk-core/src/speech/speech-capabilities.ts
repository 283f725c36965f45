import type { BotConfig } from '../config/bot-config';

/** From the platform spec: the SDK's web view lacks the speech capability. */
export const SPEECH_UNSUPPORTED_REASON = 'Text-to-speech and speech-to-text are unsupported in the mobile SDK because its web view lacks the speech capability.';
export const SPEECH_DISABLED_REASON = 'Speech-to-text is switched off by enableSpeech: false.';

export interface SpeechCapabilities {
  textToSpeech: { supported: false; reason: string };
  /** `enabled` is what the config asks for; `supported` is what the web view can do. */
  speechToText: { supported: false; enabled: boolean; reason: string };
}

export function speechCapabilities(config: Pick<BotConfig, 'enableSpeech'>): SpeechCapabilities {
  const enabled = config.enableSpeech === true;
  return {
    textToSpeech: { supported: false, reason: SPEECH_UNSUPPORTED_REASON },
    speechToText: { supported: false, enabled, reason: enabled ? SPEECH_UNSUPPORTED_REASON : `${SPEECH_DISABLED_REASON} ${SPEECH_UNSUPPORTED_REASON}` },
  };
}
