import { getBanks } from './loadOptions';

export const loadOptions = { getBanks };
