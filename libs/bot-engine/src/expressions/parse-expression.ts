import jsep from 'jsep';
import { LIMITS } from '../definition/definition-limits.js';
import { BINARY_OPERATORS, FORBIDDEN_MEMBERS, type BinaryOperator, type Expr } from './expression-ast.js';
import { ExpressionError } from './expression-error.js';
import { EXPRESSION_FUNCTIONS, isExpressionFunction } from './expression-functions.js';

type JsepNode = jsep.Expression;

/**
 * Parses an expression of the bot language into its own tree, refusing at parse time whatever the language does
 * not have: identifiers other than `variables`, `payload` and the whitelisted functions, `this`, members named
 * __proto__/constructor/prototype, calls of members, assignment, `new`, arrows, template literals, sequences.
 * jsep (the parser) is used with its default configuration and never reconfigured: it is a process-wide singleton.
 */
export function parseExpression(source: string): Expr {
  if (typeof source !== 'string' || source.trim() === '') throw new ExpressionError('the expression is empty');
  if (source.length > LIMITS.expression) throw new ExpressionError(`the expression is longer than ${LIMITS.expression} characters`);
  let tree: JsepNode;
  try {
    tree = jsep(source);
  } catch (error) {
    throw new ExpressionError(`does not parse: ${(error as Error).message}`);
  }
  return translate(tree);
}

function translate(node: JsepNode): Expr {
  switch (node.type) {
    case 'Literal': {
      const value = node.value;
      if (typeof value === 'string' || typeof value === 'boolean' || value === null) return { type: 'literal', value };
      if (typeof value === 'number' && Number.isFinite(value)) return { type: 'literal', value };
      throw new ExpressionError(`the literal ${String(node.raw)} is not allowed`);
    }
    case 'Identifier': {
      const name = node.name as string;
      if (name === 'payload') return { type: 'payload' };
      if (name === 'variables') throw new ExpressionError('name a variable: variables.<name>');
      if (isExpressionFunction(name)) throw new ExpressionError(`${name} is a function: call it, ${name}(...)`);
      throw new ExpressionError(`unknown name "${name}": use variables.<name>, payload or a function (${Object.keys(EXPRESSION_FUNCTIONS).join(', ')})`);
    }
    case 'MemberExpression':
      return member(node);
    case 'UnaryExpression': {
      const operator = node.operator as string;
      if (operator !== '!' && operator !== '-') throw new ExpressionError(`the operator ${operator} is not allowed`);
      return { type: 'unary', operator, argument: translate(node.argument as JsepNode) };
    }
    case 'BinaryExpression': {
      const operator = node.operator as string;
      const left = translate(node.left as JsepNode);
      const right = translate(node.right as JsepNode);
      if (operator === '&&' || operator === '||') return { type: 'logical', operator, left, right };
      if (!BINARY_OPERATORS.has(operator)) throw new ExpressionError(`the operator ${operator} is not allowed`);
      return { type: 'binary', operator: operator as BinaryOperator, left, right };
    }
    case 'ConditionalExpression':
      return {
        type: 'conditional',
        test: translate(node.test as JsepNode),
        consequent: translate(node.consequent as JsepNode),
        alternate: translate(node.alternate as JsepNode),
      };
    case 'ArrayExpression': {
      const elements = node.elements as Array<JsepNode | null>;
      if (elements.some((element) => element === null)) throw new ExpressionError('an array literal has an empty slot');
      return { type: 'array', elements: elements.map((element) => translate(element as JsepNode)) };
    }
    case 'CallExpression': {
      const callee = node.callee as JsepNode;
      if (callee.type !== 'Identifier') throw new ExpressionError('only the functions of the language can be called, by name');
      const name = callee.name as string;
      if (!isExpressionFunction(name)) throw new ExpressionError(`unknown function "${name}": use ${Object.keys(EXPRESSION_FUNCTIONS).join(', ')}`);
      const args = node.arguments as JsepNode[];
      const [min, max] = EXPRESSION_FUNCTIONS[name];
      if (args.length < min || args.length > max) {
        throw new ExpressionError(`${name} takes ${min === max ? min : `${min} to ${max}`} argument${max === 1 ? '' : 's'}`);
      }
      return { type: 'call', name, args: args.map(translate) };
    }
    case 'ThisExpression':
      throw new ExpressionError('"this" is not allowed');
    case 'Compound':
    case 'SequenceExpression':
      throw new ExpressionError('one expression only (no "new", ";" or ",")');
    default:
      throw new ExpressionError(`${node.type} is not allowed`);
  }
}

function member(node: JsepNode): Expr {
  const objectNode = node.object as JsepNode;
  const propertyNode = node.property as JsepNode;
  const key = memberKey(node.computed === true, propertyNode);
  if (objectNode.type === 'Identifier' && objectNode.name === 'variables') {
    if (typeof key !== 'string') throw new ExpressionError('name the variable: variables.<name>, not variables[<expression>]');
    return { type: 'variable', name: key };
  }
  return { type: 'member', object: translate(objectNode), key };
}

function memberKey(computed: boolean, property: JsepNode): string | Expr {
  if (!computed) {
    if (property.type !== 'Identifier') throw new ExpressionError('a member name is expected after "."');
    return checkedName(property.name as string);
  }
  if (property.type === 'Literal' && typeof property.value === 'string') return checkedName(property.value);
  if (property.type === 'Literal' && typeof property.value === 'number') return String(property.value);
  return translate(property);
}

function checkedName(name: string): string {
  if (FORBIDDEN_MEMBERS.has(name)) throw new ExpressionError(`the member name "${name}" is not allowed`);
  return name;
}

const parsed = new Map<string, Expr>();

/**
 * parseExpression with a bounded cache: the engine evaluates the same few expressions on every turn of every
 * conversation, and parsing costs more than evaluating. (Refusals are not cached; the validator saw them first.)
 */
export function cachedExpression(source: string): Expr {
  let expr = parsed.get(source);
  if (!expr) {
    expr = parseExpression(source);
    if (parsed.size >= 5000) parsed.clear();
    parsed.set(source, expr);
  }
  return expr;
}
