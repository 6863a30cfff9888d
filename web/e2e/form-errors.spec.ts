import type { Locator } from '@playwright/test';
import { checkoutWith } from './accounts';
import { agreeToAll, allowConsoleErrors, expect, expectNoAxeViolations, hydrated, test } from './fixtures';

// A refused form's message is where the person is looking, on a phone and on
// a laptop: it takes the focus and comes into view, however far it sits from
// the button pressed (a declined card's message was 340 px above Pay).

const DERMAL_FILLERS = '/courses/injectables/foundation-dermal-fillers/';

/** Focused and wholly on screen. */
async function expectRevealed(target: Locator) {
  await expect(target).toBeFocused();
  await expect(target).toBeInViewport({ ratio: 1 });
}


for (const width of [390, 1366]) {
  test.describe(`at ${width} px`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
    });

    test('a declined card: the message takes the focus and shows on screen', async ({ page, consoleErrors }) => {
      await checkoutWith(page, DERMAL_FILLERS);
      const form = page.getByRole('form', { name: 'Enrol and pay' });
      await form.getByLabel('First name').fill('Dana');
      await form.getByLabel('Last name').fill('Declined');
      await form.getByLabel('Email').fill(`declined-${width}@example.com`);
      await form.getByLabel('Phone number').fill('07700 900123');
      await form.getByLabel('Card number').fill('4000 0000 0000 0002');
      await form.getByLabel('Expiry (MM / YY)').fill('12 / 34');
      await form.getByLabel('Security code').fill('123');
      await agreeToAll(form);
      await form.getByRole('button', { name: /^Pay booking fee/ }).click();
      const message = form.getByRole('alert').filter({ hasText: /^Payment failed: ./ });
      await expectRevealed(message);
      await expectNoAxeViolations(page);

      // Declined again with the same words: the focus comes back to them.
      await form.getByRole('button', { name: /^Pay booking fee/ }).focus();
      await form.getByRole('button', { name: /^Pay booking fee/ }).click();
      await expectRevealed(message);
      allowConsoleErrors(consoleErrors, /status of (402 .*\/sandbox\/payment_intents\/[^/]+\/confirm|422 .*\/api\/enroll\/)\)$/);
    });

    test('a discount code refused, and a payment-plan request not sent', async ({ page, consoleErrors }) => {
      await checkoutWith(page, DERMAL_FILLERS);
      await page.getByLabel('Discount code').fill('NOSUCHCODE');
      await page.getByRole('button', { name: 'Apply' }).click();
      await expectRevealed(page.getByLabel('Discount code'));
      await expect(page.locator('.discount-code .field-error')).not.toBeEmpty();

      await page.route('**/api/callback/', (route) => route.abort());
      const plan = page.getByRole('region', { name: 'Spread the cost with a payment plan' });
      await plan.getByRole('button', { name: 'Ask about a payment plan' }).click();
      await plan.getByLabel('First name').fill('Pat');
      await plan.getByLabel('Last name').fill('Planner');
      await plan.getByLabel('Email').fill('pat.planner@example.com');
      await plan.getByLabel('Phone number').fill('07700 900456');
      await plan.getByRole('button', { name: 'Request a payment plan' }).click();
      await expectRevealed(plan.getByRole('alert').filter({ hasText: /./ }));
      await expectNoAxeViolations(page);
      allowConsoleErrors(consoleErrors, /status of 404 .*\/api\/code|net::ERR_FAILED/);
    });

    test('a wrong password on sign-in, and a sign-up that could not be sent', async ({ page, consoleErrors }) => {
      await page.goto('/sign-in/');
      await hydrated(page);
      const signIn = page.getByRole('form', { name: 'Sign in' });
      await signIn.getByLabel('Email').fill('nobody@example.com');
      await signIn.getByLabel('Password').fill('not the password');
      await signIn.getByRole('button', { name: 'Sign in' }).click();
      await expectRevealed(signIn.getByRole('alert').filter({ hasText: /./ }));
      await expectNoAxeViolations(page);

      await page.route('**/api/auth/sign-up', (route) => route.abort());
      await page.goto('/sign-up/');
      await hydrated(page);
      const signUp = page.getByRole('form', { name: 'Create your account' });
      await signUp.getByLabel('Email').fill('new.student@example.com');
      await signUp.getByLabel('Password').fill('correct horse battery');
      await signUp.getByLabel('First name').fill('Nia');
      await signUp.getByLabel('Last name').fill('New');
      await signUp.getByLabel('Phone number').fill('07700 900789');
      await signUp.getByRole('button', { name: 'Create account' }).click();
      await expectRevealed(signUp.getByRole('alert').filter({ hasText: /./ }));
      allowConsoleErrors(consoleErrors, /status of 401 .*\/api\/auth\/sign-in|net::ERR_FAILED/);
    });

    test('a callback request that could not be sent', async ({ page, consoleErrors }) => {
      await page.route('**/api/enquiries/**', (route) => route.abort());
      await page.goto('/request-a-callback/');
      await hydrated(page);
      const form = page.getByRole('region', { name: 'Request a callback' });
      await form.getByLabel('Your name').fill('Cal Back');
      await form.getByLabel('Phone number').fill('07700 900321');
      await form.getByLabel('Email address').fill('cal.back@example.com');
      await form.getByRole('button', { name: 'Request a callback' }).click();
      const message = form.getByRole('alert').filter({ hasText: 'Your message could not be sent' });
      await expectRevealed(message);
      await expectNoAxeViolations(page);
      allowConsoleErrors(consoleErrors, /net::ERR_FAILED/);
    });
  });
}
