/** A port `up` needs is taken by another process: its message names the port, what needs it and the variable that moves it. */
export class PortBusyError extends Error {}
