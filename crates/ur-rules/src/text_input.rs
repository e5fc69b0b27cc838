//! One input grammar for the decisions of every family: a move is typed
//! `FROM TO`, `FROM->TO` or `FROM-TO`, with or without its family's word
//! (`jump`, `warrior`, `twins`, `exit`, `back`); choices are words
//! (`reroll`, `end`, `move5`...). Used by [`crate::AnyGame::action_from_text`].

/// Text as a list of lower-case words and numbers: `->` and a `-` between
/// two numbers separate like spaces (`Warrior 2->4` gives `warrior 2 4`).
pub(crate) fn words(text: &str) -> Vec<String> {
    let lower = text.trim().to_lowercase().replace("->", " ");
    let chars: Vec<char> = lower.chars().collect();
    let spaced: String = chars
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let between_digits = i > 0 && chars[i - 1].is_ascii_digit() && chars.get(i + 1).is_some_and(char::is_ascii_digit);
            if c == '-' && between_digits {
                ' '
            } else {
                c
            }
        })
        .collect();
    spaced.split_whitespace().map(str::to_owned).collect()
}

/// The numbers of a list of words, the squares of a move (`+2`, a count of
/// prisoners, is not a square).
fn squares(words: &[String]) -> Vec<&str> {
    words.iter().filter(|w| w.bytes().all(|b| b.is_ascii_digit())).map(String::as_str).collect()
}

/// Which of the open decisions (given as their texts) the typed words name:
/// the one whose own words they are, else the only one with the same
/// squares and every typed word. `Err` holds the candidates (none, or
/// several).
pub(crate) fn pick(typed: &[String], open: &[String]) -> Result<usize, Vec<usize>> {
    let open_words: Vec<Vec<String>> = open.iter().map(|t| words(t)).collect();
    if let Some(i) = open_words.iter().position(|w| w == typed) {
        return Ok(i);
    }
    let typed_squares = squares(typed);
    if typed_squares.is_empty() {
        return Err(Vec::new());
    }
    let candidates: Vec<usize> = open_words
        .iter()
        .enumerate()
        .filter(|(_, w)| squares(w) == typed_squares && typed.iter().all(|t| w.contains(t)))
        .map(|(i, _)| i)
        .collect();
    // Among several, the plainest (`9->6 back` over `9->6 back +1`), if one is.
    let shortest = candidates.iter().map(|&i| open_words[i].len()).min().unwrap_or(0);
    let plainest: Vec<usize> = candidates.iter().copied().filter(|&i| open_words[i].len() == shortest).collect();
    match plainest.as_slice() {
        [one] => Ok(*one),
        _ => Err(candidates),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(texts: &[&str]) -> Vec<String> {
        texts.iter().map(|t| (*t).to_owned()).collect()
    }

    #[test]
    fn moves_read_in_every_form() {
        let open = open(&["0->3", "warrior 2->5", "5->8", "reroll"]);
        for text in ["0 3", "0->3", "0-3", " 0 -> 3 "] {
            assert_eq!(pick(&words(text), &open), Ok(0), "{text}");
        }
        for text in ["2 5", "warrior 2-5", "WARRIOR 2->5"] {
            assert_eq!(pick(&words(text), &open), Ok(1), "{text}");
        }
        assert_eq!(pick(&words("Reroll"), &open), Ok(3));
        assert_eq!(pick(&words("1 4"), &open), Err(vec![]));
    }

    #[test]
    fn a_word_or_count_tells_moves_with_the_same_squares_apart() {
        let open = open(&["2->4", "warrior 2->4", "7->10", "7->10 +1"]);
        assert_eq!(pick(&words("2 4"), &open), Ok(0));
        assert_eq!(pick(&words("warrior 2 4"), &open), Ok(1));
        assert_eq!(pick(&words("7-10 +1"), &open), Ok(3));
        assert_eq!(pick(&words("7 10"), &open), Ok(2));
        let open = super::tests::open(&["9->6 back", "9->6 back +1", "twins 5->6", "5->6"]);
        assert_eq!(pick(&words("9 6"), &open), Ok(0));
        assert_eq!(pick(&words("twins 5 6"), &open), Ok(2));
        let open = super::tests::open(&["warrior 2->4", "twins 2->4"]);
        assert_eq!(pick(&words("2 4"), &open), Err(vec![0, 1]));
    }
}
