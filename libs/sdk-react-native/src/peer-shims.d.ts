// The few declarations of the peer dependencies the package uses, for type-checking and declaration
// emit here, where react and react-native-webview have no types installed. Apps use their real types.
declare module 'react' {
  export interface ReactElement {
    type: unknown;
    props: unknown;
  }
  export interface MutableRefObject<T> {
    current: T;
  }
  export function createElement(type: unknown, props?: Record<string, unknown> | null): ReactElement;
  export function useRef<T>(initial: T): MutableRefObject<T>;
  export function useState<T>(initial: T): [T, (value: T) => void];
  export function useEffect(effect: () => void | (() => void), deps?: unknown[]): void;
}
declare module 'react-native-webview' {
  export const WebView: unknown;
}
