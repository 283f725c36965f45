import { CoreEnv, CryptoEnv, DatabaseEnv, JobLockEnv, PushEnv, PushRpcEnv } from '@platform/config';

/** The env classes the push service reads; it validates these and no others. */
export const PUSH_SERVICE_ENV = [CoreEnv, DatabaseEnv, CryptoEnv, PushEnv, PushRpcEnv, JobLockEnv];
