// Stands in for react-native-webview (a peer dependency, not installed here) in the package's tests:
// a component that records the props it was rendered with.
export const rendered: Array<Record<string, unknown>> = [];

export function WebView(props: Record<string, unknown>): null {
  rendered.push(props);
  return null;
}
