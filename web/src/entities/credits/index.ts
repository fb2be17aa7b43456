// Credits as several features use them: the price list (the pricing page lists it, the AI
// configuration flags models without a price).
export { creditsApi, pricingTag, usePricingQuery } from './credits-api';
