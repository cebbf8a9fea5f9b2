/**
 * The fields both credentials share (nodes/shared/descriptions/credentialProperties.ts): every
 * secret is a password field, and the session token is n8n's expirable, hidden field.
 */
import {
	credentialProperties,
	ledgerPicker,
} from '../../../nodes/shared/descriptions/credentialProperties';

const properties = credentialProperties('Disbursement');
const named = (name: string) => properties.find((property) => property.name === name);

describe('credentialProperties', () => {
	test('the fields, in order', () => {
		expect(properties.map((property) => property.name)).toEqual([
			'environment',
			'baseUrl',
			'username',
			'password',
			'signingSecret',
			'sessionToken',
		]);
	});

	test.each([['password'], ['signingSecret'], ['sessionToken']])(
		'%s is shown as a password',
		(name) => {
			expect(named(name)?.typeOptions?.password).toBe(true);
		},
	);

	test('the session token is hidden and expirable, so n8n fetches it again when it is refused', () => {
		expect(named('sessionToken')).toMatchObject({
			type: 'hidden',
			default: '',
			typeOptions: { expirable: true },
		});
	});

	test('a new credential starts in the sandbox', () => {
		expect(named('environment')?.default).toBe('sandbox');
		expect((named('environment')?.options as Array<{ value: string }>).map((o) => o.value)).toEqual(
			['sandbox', 'production'],
		);
	});

	test("the Base URL names the service's host", () => {
		expect(named('baseUrl')).toMatchObject({ required: true, default: '' });
		expect(named('baseUrl')?.description).toBe(
			'The Disbursement host given to you with your credentials, without a trailing path',
		);
	});
});

test('the Payout Ledger picker says it is optional and what the node uses it for', () => {
	expect(ledgerPicker('Maximum Total per Day')).toBe(
		'Payout Ledger (Optional: Maximum Total per Day)',
	);
});
