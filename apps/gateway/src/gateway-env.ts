import {
  AuthEnv,
  CatalogEnv,
  CoreEnv,
  CryptoEnv,
  HttpEnv,
  PushRpcEnv,
  SdkEnv,
  TriggerGuardEnv,
  WebhookDeliveryEnv,
  WebhookUrlEnv,
  WhatsAppRetryEnv,
  WhatsAppWebhookEnv,
} from '@platform/config';

/** The env classes the gateway reads; it validates these and no others. */
export const GATEWAY_ENV = [
  CoreEnv,
  CryptoEnv,
  HttpEnv,
  CatalogEnv,
  WhatsAppRetryEnv,
  WhatsAppWebhookEnv,
  AuthEnv,
  PushRpcEnv,
  SdkEnv,
  TriggerGuardEnv,
  WebhookUrlEnv,
  WebhookDeliveryEnv,
];
