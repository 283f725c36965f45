/** Body of every answer of the trigger API (DESIGN: `status` is "success" on 2xx, "error" otherwise). */
export interface ApiResponse {
  message: string;
  status: 'success' | 'error';
}
