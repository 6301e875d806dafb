import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import semver from 'semver';
import { CONTRACT_VERSION } from '../contract/index.js';

export interface PermissionDeclaration {
  key: string;
  group: string;
  description: string;
}

export interface PluginManifest {
  name: string;
  version: string;
  entry: string;
  contractVersion: string;
  migrations?: string;
  config: { type: 'object'; properties: Record<string, Record<string, unknown>>; additionalProperties?: boolean };
  permissions: PermissionDeclaration[];
  mailTemplates: string[];
}

const manifestSchema = {
  type: 'object',
  required: ['name', 'version', 'entry', 'contractVersion', 'config', 'permissions', 'mailTemplates'],
  properties: {
    name: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$' },
    version: { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+' },
    entry: { type: 'string', minLength: 1 },
    contractVersion: { type: 'string', minLength: 1, maxLength: 64 },
    migrations: { type: 'string' },
    description: { type: 'string' },
    config: {
      type: 'object',
      required: ['type', 'properties'],
      properties: {
        type: { const: 'object' },
        properties: { type: 'object', additionalProperties: { type: 'object', required: ['default'] } },
      },
    },
    permissions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'group', 'description'],
        additionalProperties: false,
        properties: {
          key: { type: 'string', pattern: '^[a-z0-9_.-]+$' },
          group: { type: 'string' },
          description: { type: 'string' },
        },
      },
    },
    mailTemplates: { type: 'array', items: { type: 'string', pattern: '^[a-z0-9_.-]+$' } },
  },
};

/** Reads and checks plugin.json; a bad manifest stops start-up with a message naming the field. */
export function loadManifest(file: string): PluginManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`plugin manifest ${file} is not readable JSON: ${(error as Error).message}`);
  }
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const validate = ajv.compile(manifestSchema);
  if (!validate(raw)) {
    const first = validate.errors![0]!;
    const field =
      first.keyword === 'required'
        ? `${first.instancePath}/${(first.params as { missingProperty: string }).missingProperty}`
        : first.instancePath;
    throw new Error(`plugin manifest ${file}: field "${field || '/'}" ${first.message}`);
  }
  const manifest = raw as unknown as PluginManifest;
  if (!semver.validRange(manifest.contractVersion))
    throw new Error(`plugin manifest ${file}: field "/contractVersion" is not a semver range (e.g. "^2.0.0")`);
  if (!contractSatisfies(CONTRACT_VERSION, manifest.contractVersion))
    throw new Error(
      `plugin manifest ${file}: field "/contractVersion" requires ${manifest.contractVersion}, the host offers ${CONTRACT_VERSION}`,
    );
  // The defaults must satisfy the config schema itself.
  const configValidate = ajv.compile(manifest.config);
  const defaults = configDefaults(manifest);
  if (!configValidate(defaults))
    throw new Error(
      `plugin manifest ${file}: field "/config${configValidate.errors![0]!.instancePath}" default ${configValidate.errors![0]!.message}`,
    );
  return manifest;
}

/** Does the host's contract version satisfy a plugin's requirement (any npm semver range: '^2.0.0', '^2', '~2.1', '>=2 <4')? */
export function contractSatisfies(contractVersion: string, requirement: string): boolean {
  return semver.satisfies(contractVersion, requirement);
}

export function configDefaults(manifest: PluginManifest): Record<string, unknown> {
  return Object.fromEntries(Object.entries(manifest.config.properties).map(([key, schema]) => [key, schema.default]));
}
