/** Account input the caller got wrong (a malformed e-mail, a password of the wrong length, an e-mail already taken). */
export class UserInputError extends Error {}
