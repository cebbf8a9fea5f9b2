/** Scrubbing by value: secrets the service echoes back never reach an item, an error or a log (nodes/shared/transport/secrets.ts). */
import { HIDDEN, scrubDeep, scrubText, secretsOf } from '../../../nodes/shared/transport/secrets';

describe('secretsOf', () => {
	test("a credential's password, signing secret and session token, longest first", () => {
		expect(
			secretsOf({
				username: 'biller-user',
				password: 'pass-1234',
				signingSecret: 'signing-secret-abcdef',
				sessionToken: 'tok-98765',
				baseUrl: 'https://api.example.ph',
			}),
		).toEqual(['signing-secret-abcdef', 'pass-1234', 'tok-98765']);
	});

	test('more values may be added: a token just fetched', () => {
		expect(secretsOf({ password: 'pass-1234' }, 'fresh-token-xyz')).toEqual([
			'fresh-token-xyz',
			'pass-1234',
		]);
	});

	test.each([
		['abc', []],
		['abcd', ['abcd']],
		['', []],
	])('a secret of %j is kept only when 4 characters or longer: %j', (password, expected) => {
		expect(secretsOf({ password })).toEqual(expected);
	});

	test('values that are not text, and repeats, are left out', () => {
		expect(
			secretsOf(
				{ password: 12345678 as unknown as string, sessionToken: 'same-value' },
				'same-value',
				null,
				{},
			),
		).toEqual(['same-value']);
	});

	test('a secret containing another comes first, so it is hidden whole', () => {
		const secrets = secretsOf({ password: 'token', sessionToken: 'token-and-more' });
		expect(secrets).toEqual(['token-and-more', 'token']);
		expect(scrubText('got token-and-more', secrets)).toBe(`got ${HIDDEN}`);
	});
});

describe('scrubText', () => {
	const secrets = ['pass-1234', 'tok-98765'];

	test.each([
		['Invalid password pass-1234 for user', `Invalid password ${HIDDEN} for user`],
		['Authorization: Bearer tok-98765', `Authorization: Bearer ${HIDDEN}`],
		['pass-1234pass-1234 tok-98765', `${HIDDEN}${HIDDEN} ${HIDDEN}`],
		['nothing secret here', 'nothing secret here'],
		['PASS-1234 differs in case', 'PASS-1234 differs in case'],
	])('%j becomes %j', (text, scrubbed) => {
		expect(scrubText(text, secrets)).toBe(scrubbed);
	});

	test('with no secrets the text is unchanged', () => {
		expect(scrubText('pass-1234', [])).toBe('pass-1234');
	});
});

describe('scrubDeep', () => {
	const secrets = ['pass-1234', 'tok-98765'];

	test('every string inside, keys included, whatever the field is called', () => {
		const record = {
			reference_no: 'INV-1',
			note: 'echo pass-1234',
			nested: { list: ['a', 'Bearer tok-98765', 7, null, true] },
			'tok-98765': 'as a key',
		};
		expect(scrubDeep(record, secrets)).toEqual({
			reference_no: 'INV-1',
			note: `echo ${HIDDEN}`,
			nested: { list: ['a', `Bearer ${HIDDEN}`, 7, null, true] },
			[HIDDEN]: 'as a key',
		});
		// The record itself is not changed.
		expect(record.note).toBe('echo pass-1234');
	});

	test('the same object when nothing was found, so clean answers are not copied', () => {
		const clean = { status: 'PAID', items: [{ amount: 100 }], at: null };
		expect(scrubDeep(clean, secrets)).toBe(clean);
		expect(scrubDeep(clean, [])).toBe(clean);
	});

	test('only the branch holding a secret is copied', () => {
		const untouched = { amount: 100 };
		const scrubbed = scrubDeep({ untouched, note: 'tok-98765' }, secrets);
		expect(scrubbed.untouched).toBe(untouched);
		expect(scrubbed.note).toBe(HIDDEN);
	});

	test.each([[42], [null], [undefined], [true]])('%p is returned as it is', (value) => {
		expect(scrubDeep(value, secrets)).toBe(value);
	});

	test('a bare string is scrubbed', () => {
		expect(scrubDeep('pass-1234', secrets)).toBe(HIDDEN);
	});
});
