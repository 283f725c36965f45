/** Who may read /metrics: `public` for an app whose port faces the internet (the gateway), with its token if one is set. */
export interface MetricsAccess {
  public: boolean;
  token?: string;
}

export const METRICS_ACCESS = Symbol('METRICS_ACCESS');
