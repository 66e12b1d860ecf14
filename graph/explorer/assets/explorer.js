// Starts GraphiQL against this server's /api/graphql. The endpoint is resolved relative to the
// page (/-/graphql-explorer), so the explorer also works behind a path prefix. Put a token in
// the Headers tab, e.g. {"PRIVATE-TOKEN": "glpat-..."}, to run queries as a user.
(function () {
  var endpoint = new URL('../api/graphql', window.location.href).toString();
  var fetcher = GraphiQL.createFetcher({ url: endpoint });
  var defaultQuery = '# Anvil GraphQL explorer: GitLab-compatible GraphQL at /api/graphql.\n' +
    '# Add {"PRIVATE-TOKEN": "<token>"} in the Headers tab to query as a user.\n\n' +
    'query {\n  currentUser {\n    id\n    username\n    name\n  }\n}\n';
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(React.createElement(GraphiQL, {
    fetcher: fetcher,
    defaultQuery: defaultQuery,
    isHeadersEditorEnabled: true,
    shouldPersistHeaders: true,
  }));
})();
