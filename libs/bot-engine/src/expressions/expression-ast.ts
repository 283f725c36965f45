import type { ExpressionFunctionName } from './expression-functions.js';

/**
 * The expression language's own tree. jsep's tree is translated into it node by node, so evaluation only ever
 * meets the forms listed here: what jsep can parse but the language refuses never reaches the evaluator.
 */
export type Expr =
  | { type: 'literal'; value: string | number | boolean | null }
  /** `variables.<name>`: a declared variable. */
  | { type: 'variable'; name: string }
  /** The session payload: a JSON string, or null. */
  | { type: 'payload' }
  /** `object.key` (key a string) or `object[key]` (key an expression). */
  | { type: 'member'; object: Expr; key: string | Expr }
  | { type: 'unary'; operator: '!' | '-'; argument: Expr }
  | { type: 'binary'; operator: BinaryOperator; left: Expr; right: Expr }
  | { type: 'logical'; operator: '&&' | '||'; left: Expr; right: Expr }
  | { type: 'conditional'; test: Expr; consequent: Expr; alternate: Expr }
  | { type: 'array'; elements: Expr[] }
  | { type: 'call'; name: ExpressionFunctionName; args: Expr[] };

export type BinaryOperator = '==' | '!=' | '===' | '!==' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/' | '%';

export const BINARY_OPERATORS: ReadonlySet<string> = new Set<BinaryOperator>(['==', '!=', '===', '!==', '<', '<=', '>', '>=', '+', '-', '*', '/', '%']);

/** Member names that lead to a prototype or a constructor: refused when written, and when computed. */
export const FORBIDDEN_MEMBERS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
