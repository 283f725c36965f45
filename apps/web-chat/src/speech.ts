interface Recognition {
  lang: string;
  interimResults: boolean;
  onresult: ((e: { results: ArrayLike<ArrayLike<{ transcript: string }>> }) => void) | null;
  onend: (() => void) | null;
  onerror: (() => void) | null;
  start(): void;
  stop(): void;
}

type RecognitionConstructor = new () => Recognition;

/** Speech-to-text through the Web Speech API where the browser has it; undefined elsewhere. */
export function speechRecognizer(): RecognitionConstructor | undefined {
  const w = window as unknown as { SpeechRecognition?: RecognitionConstructor; webkitSpeechRecognition?: RecognitionConstructor };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition;
}

/** Wires the microphone button: one utterance per press, handed to `onText`. */
export function attachSpeech(button: HTMLButtonElement, Recognizer: RecognitionConstructor, onText: (text: string) => void): void {
  let active: Recognition | undefined;
  button.hidden = false;
  button.addEventListener('click', () => {
    if (active) return active.stop();
    const recognition = new Recognizer();
    recognition.lang = document.documentElement.lang || navigator.language;
    recognition.interimResults = false;
    recognition.onresult = (e) => {
      const text = e.results[0]?.[0]?.transcript?.trim();
      if (text) onText(text);
    };
    recognition.onend = recognition.onerror = () => {
      active = undefined;
      button.setAttribute('aria-pressed', 'false');
    };
    active = recognition;
    button.setAttribute('aria-pressed', 'true');
    recognition.start();
  });
}
