// The page's files (relay/page/), bundled into the Worker as text: wrangler.toml's [[rules]], the
// tests' modulesRules and packaging/relay_bundle.py's esbuild loaders all import them so.
declare module "*.html" {
  const text: string;
  export default text;
}
declare module "*.css" {
  const text: string;
  export default text;
}
declare module "*/page/app.js" {
  const text: string;
  export default text;
}
