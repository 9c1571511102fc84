import { referenceView } from './api-reference-view';

describe('referenceView', () => {
  const document = {
    openapi: '3.1.0',
    paths: {
      '/customers': { get: { operationId: 'listCustomers', summary: 'List' }, post: { summary: 'Create' } },
      '/customers.xml': { $ref: '#/paths/~1customers' },
      '/other': { $ref: '#/components/pathItems/Other' },
    },
  };

  it('turns a path that only refers to another into a copy whose operations the viewer ignores', () => {
    expect(referenceView(document)).toEqual({
      openapi: '3.1.0',
      paths: {
        '/customers': document.paths['/customers'],
        '/customers.xml': {
          get: { summary: 'List', 'x-scalar-ignore': true },
          post: { summary: 'Create', 'x-scalar-ignore': true },
        },
        '/other': { $ref: '#/components/pathItems/Other' },
      },
    });
  });

  it('leaves the document it was given as it was', () => {
    const before = structuredClone(document);
    referenceView(document);
    expect(document).toEqual(before);
  });
});
