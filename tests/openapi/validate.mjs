// Validates an OpenAPI 3.1 document read from the file named on the command line, or from stdin.
// Two checks: @readme/openapi-parser (the official OAS 3.1 JSON Schema, plus what a schema cannot
// say: unique operationIds, path parameters declared, required and present in the path...), then
// every Schema Object in the document against the JSON Schema 2020-12 meta-schema and ajv's strict
// mode (the OAS 3.1 schema takes any object as a Schema Object, so a draft-07 or OpenAPI 3.0 habit
// such as `nullable`, `exclusiveMinimum: true` or tuple `items` would pass it unseen).
// Exits 0 with a one-line summary, or 1 with the validators' messages on stderr.
//
// usage: syndic-mcp openapi | node validate.mjs        node validate.mjs openapi.json
import { readFileSync } from 'node:fs';
import { validate } from '@readme/openapi-parser';
import Ajv2020 from 'ajv/dist/2020.js';

function fail(messages) {
  process.stderr.write(`openapi: the document is invalid:\n${messages.map((m) => `  - ${m}`).join('\n')}\n`);
  process.exit(1);
}

let doc;
try {
  doc = JSON.parse(readFileSync(process.argv[2] ?? 0, 'utf8'));
} catch (e) {
  fail([`cannot read it as JSON: ${e.message}`]);
}
if (typeof doc !== 'object' || doc === null || !/^3\.1\.\d+$/.test(String(doc.openapi))) {
  fail([`openapi must be 3.1.x, not ${JSON.stringify(doc?.openapi)}`]);
}

// 1. The OpenAPI 3.1 schema and rules. The parser resolves references in place: give it a copy.
const result = await validate(structuredClone(doc), { validate: { errors: { colorize: false } } });
const problems = [];
if (!result.valid) problems.push(...result.errors.map((e) => e.message));
problems.push(...result.warnings.map((w) => `(warning) ${w.message}`));
if (problems.length) fail(problems);

// 2. Every Schema Object: under a `schema` key (parameters, media types, headers) or in
// components.schemas. A schema's insides are not searched for more (a property may be called
// "schema").
function* schemaObjects(node, pointer) {
  if (Array.isArray(node)) {
    for (const [i, child] of node.entries()) yield* schemaObjects(child, `${pointer}/${i}`);
  } else if (node && typeof node === 'object') {
    for (const [key, child] of Object.entries(node)) {
      const at = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      if (key === 'schema' && child && typeof child === 'object') yield [at, child];
      else if (pointer === '/components/schemas') yield [at, child];
      else yield* schemaObjects(child, at);
    }
  }
}
const hasRef = (schema) => JSON.stringify(schema).includes('"$ref"');
const ajv = new Ajv2020({ strict: true, strictTypes: false, strictTuples: false, strictRequired: false,
                          validateFormats: false, allErrors: true });
ajv.addVocabulary(['discriminator', 'xml', 'externalDocs', 'example']);  // the OAS base vocabulary
ajv.removeKeyword('nullable');  // ajv reads OpenAPI 3.0's `nullable`; JSON Schema 2020-12 has no such keyword
let count = 0;
for (const [at, schema] of schemaObjects(doc, '')) {
  count += 1;
  if (!ajv.validateSchema(schema)) {
    problems.push(`${at}: not a JSON Schema 2020-12 schema: ${ajv.errorsText(ajv.errors, { dataVar: 'schema' })}`);
    continue;
  }
  // References point into the document, which ajv does not have: the meta-schema check is enough there.
  if (hasRef(schema)) continue;
  try {
    ajv.compile(schema);
  } catch (e) {
    problems.push(`${at}: ${e.message}`);
  }
}
if (problems.length) fail(problems);

const operations = Object.values(doc.paths ?? {}).reduce((n, item) => n + Object.keys(item).length, 0);
console.log(`openapi: valid OpenAPI ${doc.openapi} document: ${Object.keys(doc.paths ?? {}).length} paths, ` +
            `${operations} operations, ${count} schemas checked against JSON Schema 2020-12`);
