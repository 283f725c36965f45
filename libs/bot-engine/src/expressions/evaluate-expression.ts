import { FORBIDDEN_MEMBERS, type Expr } from './expression-ast.js';
import { ExpressionError } from './expression-error.js';
import { callExpressionFunction } from './expression-functions.js';
import { ownMember, toText } from './json-values.js';

/** What an expression reads: the conversation's variables and the session payload. */
export interface ExpressionScope {
  variables: Record<string, unknown>;
  payload: string | null;
}

/**
 * Evaluates a parsed expression. Reads go through own properties only, so no prototype is ever reached; the
 * cost is bounded by the tree (at most 1000 characters, no loops). Missing values are null; arithmetic without
 * a finite number answer is null (so a result is always a JSON value); `==` is `===`.
 */
export function evaluateExpression(expr: Expr, scope: ExpressionScope): unknown {
  switch (expr.type) {
    case 'literal':
      return expr.value;
    case 'variable':
      return ownMember(scope.variables, expr.name);
    case 'payload':
      return scope.payload;
    case 'member': {
      const object = evaluateExpression(expr.object, scope);
      const key = typeof expr.key === 'string' ? expr.key : evaluateExpression(expr.key, scope);
      if (typeof key !== 'string' && typeof key !== 'number') return null;
      if (typeof key === 'string' && FORBIDDEN_MEMBERS.has(key)) throw new ExpressionError(`the member name "${key}" is not allowed`);
      return ownMember(object, key);
    }
    case 'unary': {
      const value = evaluateExpression(expr.argument, scope);
      if (expr.operator === '!') return !truthy(value);
      return typeof value === 'number' ? finite(-value) : null;
    }
    case 'logical': {
      const left = evaluateExpression(expr.left, scope);
      if (expr.operator === '&&') return truthy(left) ? evaluateExpression(expr.right, scope) : left;
      return truthy(left) ? left : evaluateExpression(expr.right, scope);
    }
    case 'conditional':
      return truthy(evaluateExpression(expr.test, scope)) ? evaluateExpression(expr.consequent, scope) : evaluateExpression(expr.alternate, scope);
    case 'array':
      return expr.elements.map((element) => evaluateExpression(element, scope));
    case 'call':
      return callExpressionFunction(
        expr.name,
        expr.args.map((arg) => evaluateExpression(arg, scope)),
      );
    case 'binary':
      return binary(expr.operator, evaluateExpression(expr.left, scope), evaluateExpression(expr.right, scope));
  }
}

function binary(operator: string, left: unknown, right: unknown): unknown {
  switch (operator) {
    case '==':
    case '===':
      return left === right;
    case '!=':
    case '!==':
      return left !== right;
    case '<':
    case '<=':
    case '>':
    case '>=':
      return compare(operator, left, right);
    case '+':
      if (typeof left === 'number' && typeof right === 'number') return finite(left + right);
      if (typeof left === 'string' || typeof right === 'string') return toText(left) + toText(right);
      return null;
    default: {
      if (typeof left !== 'number' || typeof right !== 'number') return null;
      if (operator === '-') return finite(left - right);
      if (operator === '*') return finite(left * right);
      if (operator === '/') return finite(left / right);
      return finite(left % right);
    }
  }
}

/** Numbers compare with numbers and strings with strings; anything else is not ordered (false). */
function compare(operator: '<' | '<=' | '>' | '>=', left: unknown, right: unknown): boolean {
  const comparable = (typeof left === 'number' && typeof right === 'number') || (typeof left === 'string' && typeof right === 'string');
  if (!comparable) return false;
  const [a, b] = [left as number | string, right as number | string];
  if (operator === '<') return a < b;
  if (operator === '<=') return a <= b;
  if (operator === '>') return a > b;
  return a >= b;
}

function finite(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

/** JavaScript's truthiness: false, 0, '' and null are false; everything else (even [] and {}) is true. */
export function truthy(value: unknown): boolean {
  return Boolean(value);
}
