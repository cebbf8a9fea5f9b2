/** How the form names the columns of a row (nodes/shared/descriptions/columns.ts). */
import { AUTO_MAP, MAPPING_MODE, columnName } from '../../../nodes/shared/descriptions/columns';

describe('columnName', () => {
	test.each([
		['referenceNo', 'reference_no'],
		['amount', 'amount'],
		['accountNumber', 'account_number'],
		['webhookCallbackUrl', 'webhook_callback_url'],
		['customerMobileNo', 'customer_mobile_no'],
		['', ''],
	])('the parameter %j is the column %j', (param, column) => {
		expect(columnName(param)).toBe(column);
	});
});

describe('the Input Mapping parameter', () => {
	test('its name and automatic value, as the runner reads them', () => {
		expect(MAPPING_MODE).toBe('mappingMode');
		expect(AUTO_MAP).toBe('autoMapInputData');
	});
});
