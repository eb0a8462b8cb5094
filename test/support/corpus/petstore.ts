/** A small OpenAPI 3 document the API-docs pages render (served at SPEC_PATH). */
export const SPEC_PATH = '/corpus/api/openapi.json';

export const PETSTORE_SPEC = JSON.stringify({
  openapi: '3.0.3',
  info: {title: 'Pet Store API', version: '1.0.0', description: 'Pets, owners and their visits.'},
  servers: [{url: '/corpus/api'}],
  tags: [
    {name: 'pets', description: 'Everything about pets'},
    {name: 'owners', description: 'People who own pets'},
  ],
  paths: {
    '/pets': {
      get: {
        tags: ['pets'],
        operationId: 'listPets',
        summary: 'List all pets',
        parameters: [
          {name: 'limit', in: 'query', description: 'How many pets to return', schema: {type: 'integer', maximum: 100}},
        ],
        responses: {
          '200': {
            description: 'A page of pets',
            content: {'application/json': {schema: {type: 'array', items: {$ref: '#/components/schemas/Pet'}}}},
          },
        },
      },
      post: {
        tags: ['pets'],
        operationId: 'createPet',
        summary: 'Create a pet',
        requestBody: {content: {'application/json': {schema: {$ref: '#/components/schemas/Pet'}}}},
        responses: {'201': {description: 'Created'}},
      },
    },
    '/pets/{petId}': {
      get: {
        tags: ['pets'],
        operationId: 'showPetById',
        summary: 'Info for a specific pet',
        parameters: [{name: 'petId', in: 'path', required: true, schema: {type: 'string'}}],
        responses: {
          '200': {description: 'The pet', content: {'application/json': {schema: {$ref: '#/components/schemas/Pet'}}}},
        },
      },
      delete: {
        tags: ['pets'],
        operationId: 'deletePet',
        summary: 'Delete a pet',
        deprecated: true,
        parameters: [{name: 'petId', in: 'path', required: true, schema: {type: 'string'}}],
        responses: {'204': {description: 'Deleted'}},
      },
    },
    '/owners': {
      get: {
        tags: ['owners'],
        operationId: 'listOwners',
        summary: 'List owners',
        responses: {'200': {description: 'Owners'}},
      },
    },
  },
  components: {
    schemas: {
      Pet: {
        type: 'object',
        required: ['id', 'name'],
        properties: {
          id: {type: 'integer', format: 'int64'},
          name: {type: 'string', example: 'Rex'},
          tag: {type: 'string'},
        },
      },
    },
  },
});

/** The API the spec describes, for "Try it out". */
export const PETS_RESPONSE = JSON.stringify([
  {id: 1, name: 'Rex', tag: 'dog'},
  {id: 2, name: 'Tom', tag: 'cat'},
]);

export function apiRoutes(): Record<string, {body: string; contentType?: string}> {
  return {
    [SPEC_PATH]: {body: PETSTORE_SPEC, contentType: 'application/json'},
    '/corpus/api/pets': {body: PETS_RESPONSE, contentType: 'application/json'},
  };
}
