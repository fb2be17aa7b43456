// Credits as several features use them: the price list (the pricing page lists it, the AI
// configuration flags models without a price) and the credits amount a form accepts.
export { creditsApi, pricingTag, usePricingQuery } from './credits-api';
export { creditsText, optionalPositiveCreditsText } from './credits-input';
