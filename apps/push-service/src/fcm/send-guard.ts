/**
 * What a batch's run checks before its messages go to FCM (FcmSender.deliverMany): that it still
 * holds its batch. The synchronous checks run per request the pool hands out, so they must be cheap.
 */
export interface SendGuard {
  /** Before a message is sent again (a retry): resolves when it may go; what it throws is the message's result instead. */
  beforeResend(): Promise<void>;
  /** Before requests queued in the pool go out: 0 when they may, else how long to hold them while the guard finds out. */
  holdMs(): number;
  /** True: requests not sent yet are not sent at all; each is answered with `heldBack()`. */
  lost(): boolean;
  heldBack(): Error;
}
