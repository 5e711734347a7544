// The kinds of resource an agency assigns to a client, as the pages name
// them, in the order they are shown.

import type { Schemas } from './api';

export type Kind = keyof Schemas['AssignedResources'];

export const resourceKinds: [Kind, string][] = [
  ['campaign', 'Campaigns'],
  ['assistant', 'Assistants'],
  ['phone_number', 'Phone numbers'],
  ['phone_number_pool', 'Phone number pools'],
  ['provider_a_workflow', 'Workflows'],
  ['provider_a_squad', 'Squads'],
  ['knowledge_base', 'Knowledge bases'],
  ['tools_and_functions', 'Tools and functions'],
];

export const kindName = (kind: string): string => resourceKinds.find(([k]) => k === kind)?.[1] ?? kind;
