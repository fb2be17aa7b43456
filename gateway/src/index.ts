export { createAllInOne, allInOneConfigSchema, type AllInOne, type AllInOneOptions } from './compose';
export { ALL_SERVICES } from './modules';
export { buildGateway } from './app';
