import Handlebars from 'handlebars';

type Node = hbs.AST.Node;
type Data = Record<string, unknown>;

const SAMPLE_TIME = '2026-12-01T09:30:00.000Z';

/** A value that reads as what a variable of this name holds: a date, an amount, a link, a count, or its own name. */
function sampleValue(name: string): unknown {
  if (/(At|Date|date|Until|From)$/.test(name)) return SAMPLE_TIME;
  if (/(total|Total|amount|Amount|price|Price|Net|Gross|used|Used|available|Available)$/.test(name)) return 123.45;
  if (/(count|Count|quantity|Quantity|Percentage|percentage|position|Position)$/.test(name)) return 3;
  if (/(url|Url|URL|link|Link)$/.test(name)) return 'https://shop.example/sample';
  if (/(currency|Currency|currencyIso)$/.test(name)) return 'EUR';
  if (/(email|Email)$/.test(name)) return 'sample@example.com';
  return `[${name}]`;
}

/** Sets `parts` under `target` (objects made on the way); an existing object or array is kept. */
function setPath(target: Data, parts: string[], value: unknown): unknown {
  let node = target;
  for (const [index, part] of parts.entries()) {
    const last = index === parts.length - 1;
    const current = node[part];
    if (last) {
      if (current === undefined || (typeof current !== 'object' && typeof value === 'object')) node[part] = value;
      return node[part];
    }
    if (typeof current !== 'object' || current === null || Array.isArray(current)) node[part] = {};
    node = node[part] as Data;
  }
  return node;
}

/**
 * Sample data for Handlebars sources, read off their variables: every `{{path}}` gets a value that
 * looks like what its name says, an `{{#each list}}` a list of one item with the fields its block
 * reads, an `{{#if flag}}` a truthy value so the block shows. The console previews mail templates
 * with it, so no template needs sample data kept beside it.
 */
export function sampleDataFor(sources: string[]): Data {
  const root: Data = {};
  /** Items whose block prints the item itself (`{{this}}`, `{{.}}`): a list of plain values, not of objects. */
  const printsItself = new WeakSet<Data>();

  function resolve(stack: Data[], path: hbs.AST.PathExpression): { context: Data; parts: string[] } | null {
    if (path.data) return path.parts[0] === 'root' ? { context: root, parts: path.parts.slice(1) } : null;
    const context = stack[Math.max(0, stack.length - 1 - path.depth)]!;
    return path.parts.length ? { context, parts: path.parts } : null;
  }

  function touch(stack: Data[], expression: hbs.AST.Expression, value?: unknown): unknown {
    if (expression.type !== 'PathExpression') return undefined;
    const path = expression as hbs.AST.PathExpression;
    const self = stack[Math.max(0, stack.length - 1 - path.depth)];
    if (!path.data && !path.parts.length && typeof self === 'object') printsItself.add(self);
    const target = resolve(stack, expression as hbs.AST.PathExpression);
    if (!target) return undefined;
    return setPath(target.context, target.parts, value ?? sampleValue(target.parts[target.parts.length - 1]!));
  }

  function walk(node: Node | undefined, stack: Data[]): void {
    if (!node) return;
    switch (node.type) {
      case 'Program':
        for (const statement of (node as hbs.AST.Program).body) walk(statement, stack);
        return;
      case 'MustacheStatement':
      case 'SubExpression': {
        const mustache = node as hbs.AST.MustacheStatement;
        if (mustache.params.length) for (const param of mustache.params) walk(param, stack);
        else touch(stack, mustache.path);
        return;
      }
      case 'PathExpression':
        touch(stack, node);
        return;
      case 'BlockStatement': {
        const block = node as hbs.AST.BlockStatement;
        const helper = block.path.type === 'PathExpression' ? block.path.original : '';
        const [subject] = block.params;
        if ((helper === 'each' || helper === 'with') && subject) {
          const item: Data = {};
          const holder = touch(stack, subject, helper === 'each' ? [item] : item);
          const inner = Array.isArray(holder)
            ? typeof holder[0] === 'object' && holder[0]
              ? (holder[0] as Data)
              : item
            : typeof holder === 'object' && holder
              ? (holder as Data)
              : item;
          walk(block.program, [...stack, inner]);
          // `{{#each reasons}}{{this}}{{/each}}` lists text: an object there would print "[object Object]".
          if (Array.isArray(holder) && holder[0] === inner && printsItself.has(inner) && !Object.keys(inner).length)
            holder[0] = sampleValue((subject as hbs.AST.PathExpression).parts.at(-1) ?? 'item');
          walk(block.inverse, stack);
          return;
        }
        if (helper === 'if' || helper === 'unless') {
          if (subject?.type === 'PathExpression') touch(stack, subject, helper === 'if' ? undefined : false);
          else if (subject) walk(subject, stack);
        } else {
          for (const param of block.params) walk(param, stack);
          if (!block.params.length) touch(stack, block.path);
        }
        walk(block.program, stack);
        walk(block.inverse, stack);
        return;
      }
      default:
        return;
    }
  }

  for (const source of sources) walk(Handlebars.parse(source), [root]);
  return root;
}
