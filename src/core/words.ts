// Word lists for ranking, written for it (not a linguistic reference, and not taken from any
// conversation): words that carry no fact, and words that carry little.

/** A small English stopword list: words that carry no fact on their own. Written for ranking
 * (not a linguistic reference): function words, auxiliaries and chat filler. */
export const STOPWORDS = new Set(
  `a about above after again against all also am an and any are as at be because been before being below between both but by
can could did do does doing done down during each even ever few for from further get got had has have having he her here hers
herself him himself his how i if in into is it its itself just let like me more most much my myself no nor not now of off on
once only or other our ours ourselves out over own really same she should so some such than that the their theirs them themselves
then there these they this those through to too under until up very was we were what when where which while who whom why will
with would you your yours yourself yourselves yes yeah oh ok okay hey hi hello wow thanks thank great good nice cool sure well
im ive id ill youre youve thats its dont doesnt didnt cant wont isnt arent wasnt one thing things lot bit way something anything
know think going want really still back make made see say said tell told feel feels felt sounds sound glad happy awesome amazing
yea yep nope ya lol haha hah totally definitely absolutely exactly kinda gonna wanna gotta super pretty stuff guess hope wish
hear heard appreciate appreciated totally true right love loved fun nope bet cheers congrats congratulations yay omg btw`.split(/\s+/),
);

/** Common English words that carry a little meaning but rarely the fact itself: feelings, praise,
 * time in general, everyday verbs and nouns. Ranking counts them at a fraction of their weight, so
 * "excited to see what the future holds" does not outrank "the shop opened in Boston". Written for
 * ranking, from general usage (not from any conversation). */
export const GENERIC_WORDS = new Set(
  `able actually ago almost already always amazing another anyone anything anyway around ask asked away awesome bad beautiful
best better big busy came care cause chance change chat check come comes coming course crazy day days deal different does done
easy else end enjoy enjoyed enjoying especially every everyone everything excited exciting experience experiences face fact fantastic
far feeling feelings find first forward found friend friends future gave give gives giving glad goal goals goes going gone good
great grow hard help helped helps hey hold holds home idea ideas important incredible inspiring inspired interesting journey keep
keeps kind last later least left less life little live long look looking looks lots made makes making many matter maybe mean means
meaning memories might mind moment moments month months morning much must need needs never new next night often old others part
passion people person place places plan plans point positive possible probably proud put quite rather ready reason recently remember
rest right sad saw seems seen sense share shared since small soon sort special start started step story sure surely take takes
taking talk talked talking thing think thought time times today together tough tried true try trying turn understand us use used
usually want wanted watch week weeks went whole wonderful work worked working world worth year years yesterday yet`.split(/\s+/),
);
