// state-types.mjs: the TypeScript types of the lab's settings, written from the app's state
// schema (src/app/state_schema.h: state_schema_json(), the one table of the state's keys), so a
// key added to that table appears in the npm package's declarations by itself
// (cmake/steps/make-site.mjs, step 6, puts them into api.d.ts).
//
//   stateTypes(schema) -> {settings, patch}: the bodies of two interfaces, LabSettings (every
//   key, as getState() and session() hold them) and LabSettingsPatch (every key optional, at
//   every level: what setState takes)
//
// A schema entry is {path, kind, min?, max?, choices?, loadedChoices?, length?, below?, divides?,
// fixed?, needsEvenDk?, default}; a dotted path ('lm.tokens', 'compare.mask.causal') is a member of a
// nested object. A kind this file does not know stops the build rather than be typed loosely.
// It is not a general JSON-schema converter: it knows the kinds state_schema.h lists.

// Each kind: its TypeScript type (`choices` the entry's names, quoted) and what its comment says.
const KINDS = {
  bool: { type: () => 'boolean', says: () => 'true or false' },
  int: { type: () => 'number', says: (e) => `a whole number in [${e.min}, ${e.max}]` },
  number: { type: () => 'number', says: (e) => `a number in [${e.min}, ${e.max}]` },
  enum: { type: (e, names) => names.join(' | '), says: () => 'one of the names' },
  'enum|number': { type: (e, names) => [...names, 'number'].join(' | '), says: (e) => `one of the names, or a number in [${e.min}, ${e.max}]` },
  string: { type: () => 'string', says: () => 'text' },
  token: { type: () => 'number', says: (e) => `a token's index, from ${e.min} to the tokens' count - 1` },
  tokens: { type: () => 'number[]', says: () => 'sorted distinct token indices' },
  cells: { type: () => 'string', says: () => "painted mask cells, 'row:col+ row:col-'" },
  vector: { type: () => 'number[]', says: (e) => `exactly ${e.length} numbers in [${e.min}, ${e.max}]` },
  list: { type: () => 'number[]', says: (e) => `1 to ${e.length} numbers in [${e.min}, ${e.max}]` },
  indices: { type: () => 'number[]', says: (e) => `distinct whole numbers from ${e.min} to ${e.max}` },
};

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const memberName = (name) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));

// The key's comment: what it takes, its relations to other keys, its default.
function describe(e) {
  const parts = [KINDS[e.kind].says(e)];
  if (e.below) parts.push(`less than '${e.below}'`);
  if (e.divides) parts.push(`'${e.divides}' is a multiple of it`);
  if (e.fixed) parts.push('only the default today');
  if (e.loadedChoices?.length) parts.push(`${e.loadedChoices.map((c) => `'${c}'`).join(', ')} once what they need is loaded`);
  if (e.needsEvenDk?.length)
    parts.push(`${e.needsEvenDk.map((c) => `'${c}'`).join(', ')} need${e.needsEvenDk.length === 1 ? 's' : ''} an even dModel / heads`);
  const shown = JSON.stringify(e.default);
  parts.push(`default ${shown.length > 60 ? `${shown.slice(0, 57)}...` : shown}`);
  return `${parts.join('; ')}`.replace(/\*\//g, '*\\/');  // a comment never ends early
}

function typeOf(e) {
  const kind = KINDS[e.kind];
  if (!kind) throw new Error(`state-types: the schema's key '${e.path}' has the kind '${e.kind}', which state-types.mjs does not know`);
  const names = [...(e.choices ?? []), ...(e.loadedChoices ?? [])].map((c) => JSON.stringify(c));
  if (e.kind.startsWith('enum') && !names.length) throw new Error(`state-types: the enum key '${e.path}' lists no choices`);
  return kind.type(e, names);
}

// The keys as a tree: a leaf is a schema entry, an inner node a Map of its members.
function keyTree(schema) {
  const top = new Map();
  for (const e of schema) {
    const segments = e.path.split('.');
    let node = top;
    for (const segment of segments.slice(0, -1)) {
      if (!node.has(segment)) node.set(segment, new Map());
      node = node.get(segment);
      if (!(node instanceof Map)) throw new Error(`state-types: '${e.path}' lies inside the key '${segment}', which is not an object`);
    }
    const last = segments.at(-1);
    if (node.has(last)) throw new Error(`state-types: the schema names '${e.path}' twice, or as a key and an object`);
    node.set(last, e);
  }
  return top;
}

// The members of one object, indented; `optional` marks every member with '?'.
function members(node, optional, indent) {
  const lines = [];
  const mark = optional ? '?' : '';
  for (const [name, value] of node) {
    if (value instanceof Map) {
      lines.push(`${indent}${memberName(name)}${mark}: {`, ...members(value, optional, `${indent}  `), `${indent}};`);
    } else {
      lines.push(`${indent}/** ${describe(value)} */`, `${indent}${memberName(name)}${mark}: ${typeOf(value)};`);
    }
  }
  return lines;
}

export function stateTypes(schema) {
  if (!Array.isArray(schema) || !schema.length || !schema.every((e) => typeof e?.path === 'string' && typeof e.kind === 'string'))
    throw new Error('state-types: the schema is not a list of {path, kind, ...}');
  const tree = keyTree(schema);
  return { settings: members(tree, false, '  ').join('\n'), patch: members(tree, true, '  ').join('\n') };
}
