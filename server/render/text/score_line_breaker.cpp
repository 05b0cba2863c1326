// text-wrap-style balance and pretty chosen by score, as Blink's ScoreLineBreaker does
// (see scoredLineLengths() in text_internal.h).

#include "server/render/text/text_internal.h"

#include <QTextLayout>

#include <algorithm>
#include <limits>

namespace imprint::render::text_detail {

namespace {

// Blink's ScoreLineBreakContext and ScoreLineBreaker constants.
constexpr int kMaxLinesForBalance = 6;
constexpr int kMaxLinesForOptimal = 4;
constexpr int kMinCandidates = 3; // break opportunities, besides the two ends
constexpr float kOrphansPenalty = 10000;
constexpr float kScoreInfinity = std::numeric_limits<float>::max();
constexpr float kScoreOverfull = 1e12f;
constexpr float kLastLinePenaltyMultiplier = 4;
constexpr qreal kBlinkFit = 1.0 / 64; // LayoutUnit::Epsilon(): a line may reach this far past its room

/// A place a line may end (LineBreakCandidate): where the next line starts, the x its line
/// ends at when broken there (trailing spaces hang) and where the next line's text starts
/// in the unbroken paragraph, px.
struct Candidate {
    int offset = 0;
    float posIfBreak = 0;
    float posNoBreak = 0;
    float penalty = 0;
};

struct Score {
    float score = 0;
    size_t prev = 0;
    int lineIndex = 0;
};

/// Whether the paragraph is one the candidates below model: Qt breaks it at word
/// boundaries only, it has no soft hyphen (a hyphenated candidate's penalty and hyphen
/// width) and no forced break (Blink scores each part between them), and it is laid out
/// left to right, so that x grows with the offset.
bool isModelled(const QTextLayout &layout)
{
    if (layout.textOption().wrapMode() != QTextOption::WordWrap
        || layout.textOption().textDirection() == Qt::RightToLeft)
        return false;
    const QString &text = layout.text();
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == QChar(0x00AD) || c == QChar::LineSeparator || c == QChar::ParagraphSeparator || c == u'\n')
            return false;
        switch (c.direction()) {
        case QChar::DirR:
        case QChar::DirAL:
        case QChar::DirAN:
        case QChar::DirRLE:
        case QChar::DirRLO:
        case QChar::DirRLI: return false;
        default: break;
        }
    }
    return true;
}

/// The offsets Qt may start a line at: each line of the paragraph laid out at no width
/// holds one break unit (a word with its trailing spaces).
std::vector<int> breakOpportunities(QTextLayout &layout)
{
    std::vector<int> starts;
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(0);
        if (line.textStart() > 0)
            starts.push_back(line.textStart());
    }
    layout.endLayout();
    return starts;
}

/// Blink's ScoreLineBreaker::ComputeScores(): each candidate's best score as the end of a
/// line (the squared room its line leaves, the penalties), with the candidate its line
/// starts at. `available` is each line's room to fit (the first narrowed by text-indent).
std::vector<Score> computeScores(const std::vector<Candidate> &candidates, const std::vector<qreal> &available,
                                 bool balanced, float linePenalty)
{
    const auto roomOf = [&](int lineIndex) {
        return float(available[size_t(std::min<int>(lineIndex, int(available.size()) - 1))]);
    };
    std::vector<Score> scores;
    scores.reserve(candidates.size());
    scores.push_back(Score{0, 0, 0});
    size_t active = 0;
    for (size_t end = 1; end < candidates.size(); ++end) {
        const Candidate &endCandidate = candidates[end];
        const bool isLast = end == candidates.size() - 1;
        float best = kScoreInfinity;
        size_t bestPrev = 0;
        int lastLineIndex = scores[active].lineIndex;
        float room = roomOf(lastLineIndex);
        float startEdge = endCandidate.posIfBreak - room;
        float bestHope = 0;
        for (size_t start = active; start < end; ++start) {
            const Score &startScore = scores[start];
            if (startScore.lineIndex != lastLineIndex) {
                lastLineIndex = startScore.lineIndex;
                const float newRoom = roomOf(lastLineIndex);
                if (newRoom != room) {
                    room = newRoom;
                    startEdge = endCandidate.posIfBreak - room;
                    bestHope = 0;
                }
            }
            if (startScore.score + bestHope >= best)
                continue;
            const Candidate &startCandidate = candidates[start];
            const float delta = startCandidate.posNoBreak - startEdge; // the room the line leaves
            float widthScore = 0, additional = 0;
            if (delta < 0)
                widthScore = kScoreOverfull;
            else if (isLast && !balanced)
                additional = kLastLinePenaltyMultiplier * startCandidate.penalty; // pretty: the last line's room is free
            else
                widthScore = delta * delta;
            if (delta < 0)
                active = start + 1;
            else
                bestHope = widthScore;
            const float score = startScore.score + widthScore + additional;
            if (score <= best) {
                best = score;
                bestPrev = start;
            }
        }
        scores.push_back(Score{best + endCandidate.penalty + linePenalty, bestPrev, scores[bestPrev].lineIndex + 1});
    }
    return scores;
}

} // namespace

std::optional<std::vector<int>> scoredLineLengths(QTextLayout &layout, TextWrapStyle style, qreal lineWidth,
                                                  qreal indent, qreal overhang, qreal fontSize, qreal pxPerUnit)
{
    if (style != TextWrapStyle::Balance && style != TextWrapStyle::Pretty)
        return std::vector<int>{};
    if (!isModelled(layout))
        return std::nullopt;
    const bool balanced = style == TextWrapStyle::Balance;
    const QString text = layout.text();
    const qreal firstWidth = std::max<qreal>(0, lineWidth - indent);

    // The greedy lines: a paragraph of one line, or of more than Blink scores, keeps them.
    struct GreedyLine {
        int start = 0, length = 0;
        qreal width = 0;
    };
    std::vector<GreedyLine> greedy;
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        setLineWidthByAdvance(line, greedy.empty() ? firstWidth : lineWidth, overhang, false);
        greedy.push_back({line.textStart(), line.textLength(), line.naturalTextWidth()});
    }
    layout.endLayout();
    const int maxLines = balanced ? kMaxLinesForBalance : kMaxLinesForOptimal;
    if (greedy.size() < 2 || int(greedy.size()) > maxLines)
        return std::vector<int>{};

    // pretty scores only a paragraph whose last line is short and one word (Blink's
    // ShouldOptimize(): "the optimization benefit is most visible" there).
    const GreedyLine &last = greedy.back();
    if (!balanced && last.width >= lineWidth / 3)
        return std::vector<int>{};
    const std::vector<int> opportunities = breakOpportunities(layout);
    if (!balanced && std::any_of(opportunities.begin(), opportunities.end(), [&](int o) {
            return o > last.start && o < last.start + last.length;
        }))
        return std::vector<int>{};
    if (int(opportunities.size()) < kMinCandidates)
        return std::vector<int>{};

    // x of every offset in the unbroken paragraph.
    QTextLayout single(text, layout.font());
    single.setFormats(layout.formats());
    QTextOption option = layout.textOption();
    option.setWrapMode(QTextOption::NoWrap);
    single.setTextOption(option);
    single.beginLayout();
    QTextLine row = single.createLine();
    row.setLineWidth(kNoWrapWidth);
    single.endLayout();
    const auto x = [&](int offset) { return float(row.cursorToX(offset)); };
    const auto withoutTrailingSpaces = [&](int from, int to) {
        while (to > from && text.at(to - 1).isSpace())
            --to;
        return to;
    };

    std::vector<Candidate> candidates;
    candidates.push_back({0, x(0), x(0), 0});
    int previous = 0;
    for (int o : opportunities) {
        candidates.push_back({o, x(withoutTrailingSpaces(previous, o)), x(o), 0});
        previous = o;
    }
    const int end = int(text.size());
    candidates.push_back({end, x(withoutTrailingSpaces(previous, end)), x(end), 0});
    // Typographic orphans: breaking before the last word costs more. Blink's penalty is in
    // px²; the layout's units may be scaled (shapeAtShapingSize()).
    const qreal unitsPerPx = pxPerUnit > 0 ? 1 / pxPerUnit : 1;
    candidates[candidates.size() - 2].penalty += float(kOrphansPenalty * unitsPerPx * unitsPerPx);

    // Minikin's parameters, as Blink sets them up for text that is not justified.
    const qreal room = lineWidth - kWidthEpsilon;
    const float linePenalty = float(room * fontSize) * 2 * 2;
    const std::vector<qreal> available{std::max<qreal>(0, room - indent) + kBlinkFit * unitsPerPx,
                                       room + kBlinkFit * unitsPerPx};
    const std::vector<Score> scores = computeScores(candidates, available, balanced, linePenalty);

    std::vector<int> breaks; // line ends, last first
    for (size_t i = scores.size() - 1; i > 0; i = scores[i].prev)
        breaks.push_back(candidates[i].offset);
    std::reverse(breaks.begin(), breaks.end());
    std::vector<int> lengths;
    int from = 0;
    bool same = breaks.size() == greedy.size();
    for (size_t i = 0; i < breaks.size(); ++i) {
        lengths.push_back(breaks[i] - from);
        same = same && greedy[i].start == from && greedy[i].length == lengths.back();
        from = breaks[i];
    }
    return same ? std::vector<int>{} : lengths;
}

} // namespace imprint::render::text_detail
