// constants.js: the numbers of the game the page needs to lay out the table. The rules
// themselves (what is legal, who wins, scores) are decided by the engine only.

/** The player's seat (bottom); the partner sits at 2, the opponents at 1 and 3. */
export const HUMAN = 0;
/** The player's team (seats 0 and 2), as the engine numbers teams. */
export const OUR_TEAM = 0;
/** Seats at the table. */
export const SEATS = 4;
/** Cards dealt to each seat, which is also the number of tricks in a hand. */
export const HAND_SIZE = 13;
/** Tricks in one hand. */
export const TRICKS_PER_HAND = HAND_SIZE;
/** Highest bid (all thirteen tricks); 0 is nil. */
export const MAX_BID = HAND_SIZE;
/** The bid that means nil. */
export const NIL = 0;
/** The engine's bid action for a blind nil (spades.variant.BLIND_NIL); the state then shows 0 with `blind`. */
export const BLIND_NIL = "blind";
