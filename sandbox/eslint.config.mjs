// test/, sandbox/ and scripts/ share one lint configuration; ../eslint.tooling.mjs says why.
export { default } from '../eslint.tooling.mjs';
