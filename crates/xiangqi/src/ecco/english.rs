//! The ECCO names in English, put together from the Chinese ones term by term: each name is a
//! row of the opening vocabulary (中炮, 屏风马, 过河车, 对, …), and each term has its English.

/// The terms of the names and their English, longest first where one starts another (the
/// reading takes the longest term that fits).
const TERMS: &[(&str, &str)] = &[
    ("其他开局", "Other openings"),
    ("仙人指路", "Pawn Opening"),
    ("后补列炮", "Late Opposite Cannon"),
    ("左炮封车", "Left Cannon Blocking the Chariot"),
    ("平炮兑车", "Cannon Across to Exchange Chariots"),
    ("平炮压马", "Cannon Across Pinning the Horse"),
    ("进炮打马", "Cannon Forward Attacking the Horse"),
    ("炮打中卒", "Cannon Takes the Central Pawn"),
    ("左三步虎", "Left Three-Step Tiger"),
    ("右三步虎", "Right Three-Step Tiger"),
    ("双炮过河", "Both Cannons Across the River"),
    ("连进７卒", "Seventh Pawn Twice Forward"),
    ("急进左马", "Quick Left Horse"),
    ("后补左马", "Late Left Horse"),
    ("外盘河", "to the Outer Riverbank"),
    ("屏风马", "Screen Horses"),
    ("反宫马", "Reverse Palace Horses"),
    ("单提马", "Single Lifted Horse"),
    ("拐角马", "Corner Horse"),
    ("七路马", "Seventh-File Horse"),
    ("两头蛇", "Two-Headed Snake"),
    ("鸳鸯炮", "Mandarin Duck Cannons"),
    ("龟背炮", "Turtle Back Cannon"),
    ("卒底炮", "Cannon Behind the Pawn"),
    ("兵底炮", "Cannon Behind the Pawn"),
    ("金钩炮", "Golden Hook Cannon"),
    ("仕角炮", "Palcorner Cannon"),
    ("士角炮", "Palcorner Cannon"),
    ("过宫炮", "Cross-Palace Cannon"),
    ("巡河炮", "River Cannon"),
    ("过河炮", "Cross-River Cannon"),
    ("巡河车", "River Chariot"),
    ("过河车", "Cross-River Chariot"),
    ("骑河车", "Riverbank Chariot"),
    ("缓开车", "Delayed Chariot"),
    ("五六炮", "Five-Six Cannons"),
    ("五七炮", "Five-Seven Cannons"),
    ("五八炮", "Five-Eight Cannons"),
    ("五九炮", "Five-Nine Cannons"),
    ("退边炮", "Edge Cannon Back"),
    ("盘河", "to the Riverbank"),
    ("中炮", "Central Cannon"),
    ("顺炮", "Same Direction Cannons"),
    ("列炮", "Opposite Direction Cannons"),
    ("顺相", "Same-Side Elephants"),
    ("列相", "Opposite Elephants"),
    ("飞左象", "Left Elephant"),
    ("飞右象", "Right Elephant"),
    ("飞相", "Elephant"),
    ("飞象", "Elephant"),
    ("边相", "Edge Elephant"),
    ("起马", "Horse Opening"),
    ("上右士", "Right Advisor Up"),
    ("上左士", "Left Advisor Up"),
    ("上仕", "Advisor Up"),
    ("上士", "Advisor Up"),
    ("直车", "Straight Chariot"),
    ("横车", "Horizontal Chariot"),
    ("正马", "Proper Horse"),
    ("边马", "Edge Horse"),
    ("边炮", "Edge Cannon"),
    ("边兵", "Edge Pawn"),
    ("边卒", "Edge Pawn"),
    ("七兵", "Seventh Pawn"),
    ("三兵", "Third Pawn"),
    ("中兵", "Central Pawn"),
    ("７卒", "Seventh Pawn"),
    ("３卒", "Third Pawn"),
    ("对兵", "Pawns Facing"),
    ("互进", "Both Advance"),
    ("过河", "Across the River"),
    ("巡河", "to the River"),
    ("高", "Raised"),
    ("开局", "Opening"),
    ("局", "Opening"),
    ("其他", "Others"),
    ("对", "vs"),
    ("转", "into"),
    ("或", "or"),
    ("不进", "without"),
    ("进", "Advancing"),
    ("兑", "Exchanging"),
    ("弃", "Sacrificing"),
    ("先", "First"),
    ("双", "Both"),
    ("红", "Red"),
    ("黑", "Black"),
    ("左", "Left"),
    ("右", "Right"),
    ("马", "Horse"),
    ("车", "Chariot"),
    ("炮", "Cannon"),
    ("兵", "Pawn"),
    ("卒", "Pawn"),
    ("象", "Elephant"),
    ("相", "Elephant"),
    ("仕", "Advisor"),
    ("士", "Advisor"),
];

/// The English of one Chinese name, term by term; `None` if a part of it is no known term.
fn translate(chinese: &str) -> Option<String> {
    let mut words: Vec<&str> = Vec::new();
    let mut rest = chinese;
    while !rest.is_empty() {
        let (term, english) = TERMS
            .iter()
            .filter(|(term, _)| rest.starts_with(term))
            .max_by_key(|(term, _)| term.len())?;
        // 起马局 and 仙人指路局 are the Horse Opening and the Pawn Opening, not "… Opening
        // Opening".
        let repeated = *english == "Opening" && words.iter().any(|w| w.ends_with("Opening"));
        if !repeated {
            words.push(english);
        }
        rest = &rest[term.len()..];
    }
    Some(words.join(" "))
}

/// The English name of an ECCO opening and variation (`中炮过河车互进七兵对屏风马平炮兑车`,
/// `红仕角炮对黑退边炮`): the two parts joined by a comma. A part with a word outside the
/// vocabulary keeps its Chinese (the tests check that no name of the system has one).
pub fn english_name(opening: &str, variation: &str) -> String {
    let part = |chinese: &str| translate(chinese).unwrap_or_else(|| chinese.to_owned());
    if variation.is_empty() {
        part(opening)
    } else {
        format!("{}, {}", part(opening), part(variation))
    }
}

#[cfg(test)]
pub(super) fn untranslated(chinese: &str) -> bool {
    translate(chinese).is_none()
}
