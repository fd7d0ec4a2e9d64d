/** Styles the refund pages add to the element's own (details list, warning, address field). */
import { css } from 'lit';

/** The refund pages' shadow styles beyond `<crypto-checkout>`'s. */
export const refundStyles = css`
  /* One grid for every pair, so the values line up. */
  [part='details'] {
    margin: 0;
    display: grid;
    grid-template-columns: fit-content(40%) minmax(0, 1fr);
    gap: 0.4rem 0.75rem;
  }
  [part='details'] div {
    display: contents;
  }
  dt {
    color: var(--cc-muted);
  }
  dd {
    margin: 0;
    min-width: 0;
  }
  [part='warning'] {
    padding: 0.5rem 0.75rem;
    border-inline-start: 4px solid var(--cc-error);
    font-weight: 500;
  }
  [part='pay-button'] {
    width: 100%;
  }
  /* Each half of an address stays whole: an address wraps once, in the middle, or not at all. */
  .address span {
    white-space: nowrap;
  }
  /* The test badge sits above the title at every width, as one piece: the title never wraps around it. */
  [part='header'] .badge {
    display: inline-block;
    margin: 0 0 0.25rem;
    white-space: nowrap;
  }
`;
