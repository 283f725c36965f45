import type { BotVariableType } from '@platform/contracts';
import type { Expr } from './expression-ast.js';
import { EXPRESSION_FUNCTION_TYPES } from './expression-functions.js';

/** The variables an expression reads (`variables.<name>`), in order of appearance. */
export function referencedVariables(expr: Expr): string[] {
  const names: string[] = [];
  const visit = (node: Expr): void => {
    switch (node.type) {
      case 'variable':
        names.push(node.name);
        return;
      case 'member':
        visit(node.object);
        if (typeof node.key !== 'string') visit(node.key);
        return;
      case 'unary':
        visit(node.argument);
        return;
      case 'binary':
      case 'logical':
        visit(node.left);
        visit(node.right);
        return;
      case 'conditional':
        visit(node.test);
        visit(node.consequent);
        visit(node.alternate);
        return;
      case 'array':
        node.elements.forEach(visit);
        return;
      case 'call':
        node.args.forEach(visit);
        return;
      default:
        return;
    }
  };
  visit(expr);
  return names;
}

/**
 * The type an expression always has, when that is known without running it (null when it depends on values).
 * `null` literals and functions that may answer null (number, round) count as unknown.
 */
export function staticType(expr: Expr, declared: ReadonlyMap<string, BotVariableType>): BotVariableType | null {
  switch (expr.type) {
    case 'literal':
      return expr.value === null ? null : (typeof expr.value as 'string' | 'number' | 'boolean');
    case 'variable':
      return declared.get(expr.name) ?? null;
    case 'array':
      return 'array';
    case 'unary':
      return expr.operator === '!' ? 'boolean' : null;
    case 'binary':
      if (['==', '!=', '===', '!==', '<', '<=', '>', '>='].includes(expr.operator)) return 'boolean';
      if (expr.operator === '+' && (staticType(expr.left, declared) === 'string' || staticType(expr.right, declared) === 'string')) return 'string';
      return null;
    case 'conditional': {
      const consequent = staticType(expr.consequent, declared);
      return consequent !== null && consequent === staticType(expr.alternate, declared) ? consequent : null;
    }
    case 'call':
      return EXPRESSION_FUNCTION_TYPES[expr.name];
    default:
      return null;
  }
}
