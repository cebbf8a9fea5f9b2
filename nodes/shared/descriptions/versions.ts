/**
 * Display conditions by node version (n8n's light versioning, `@version`), for every node that
 * shows a parameter only on some of its versions.
 */
export const IN_VERSION_1 = { '@version': [1] };
export const FROM_VERSION_2 = { '@version': [{ _cnd: { gte: 2 } }] };
