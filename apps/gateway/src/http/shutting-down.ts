/** The answer to a request that reaches a gateway after it stopped serving. */
export const SHUTTING_DOWN_BODY = { message: 'The server is shutting down; retry the request.', status: 'error' } as const;
