//! Source 002's capacity arithmetic and admission model: ρ = 60 %, a 75 % ceiling that
//! admits 150/s, headroom 50 and margin 30, at least 7 workers, L = λW (4.8 and 12); then
//! its token bucket step by step (B = 2, r = 2/s, concurrency 1, three rejection reasons);
//! last, why the admitted rate is not the load: "first + 3 retries" on 3 layers is 64×.

use crate::lesson::{Lesson, Step, tr};

pub const LESSON: Lesson = Lesson {
    id: "capacity",
    title: tr("Source 002: capacity, headroom and admission", "文档 002：容量、余量与准入"),
    summary: tr(
        "{#120} requests/s on {#8} workers of {#40} ms: utilisation, a {#75} % ceiling, two kinds of spare, the fewest workers, Little's law; then the token bucket and concurrency limit step by step, and what retries do to an admitted rate.",
        "{#8} 个工作线程、每个请求 {#40} ms、每秒 {#120} 个请求：利用率、{#75}% 接纳上限、两种“余量”、最少工作线程数、Little 定律；然后逐步推演令牌桶与并发上限，以及重试如何放大已接纳的流量。",
    ),
    source: "002",
    steps: &[
        Step {
            link: "page=queue&preset=source-002",
            knobs: &["rate", "workers"],
            title: tr("How busy is the pool?", "线程池有多忙？"),
            narration: tr(
                "Fix the workload first: λ = {set-rate:n} requests/s, each holding one worker {set-ms} on average. One worker serves {cap-mu}/s; {set-workers:n} workers at most {cap-ideal}/s.",
                "先固定工作负载：到达率 λ = {set-rate:n} 请求/秒，每个请求平均独占一个工作线程 {set-ms}。单个工作线程的服务率为 {cap-mu}/秒；{set-workers:n} 个工作线程的理想上界为 {cap-ideal}/秒。",
            ),
            question: Some(tr("What share of the pool is busy?", "线程池有多大比例在忙？")),
            answer: Some(tr(
                "ρ = {set-rate:n} ÷ {cap-ideal} = {cap-rho}. Busy is not slow yet: for this pool (M/M/{set-workers:n}) the mean wait is {q-wait}, and the p99 time in the pool, {q-p99}, is almost all the exponential service time's own tail (the service time alone has a p99 of ln {#100} × {set-ms}). At ρ = {cap-rho} queueing adds milliseconds; the hockey stick comes later.",
                "ρ = {set-rate:n} ÷ {cap-ideal} = {cap-rho}。忙不等于慢：对这个池（M/M/{set-workers:n}），平均等待只有 {q-wait}；池中停留时间的 p99 为 {q-p99}，几乎全部来自指数服务时间自身的长尾（仅服务时间本身的 p99 就是 ln {#100} × {set-ms}）。ρ = {cap-rho} 时排队只增加几毫秒，“曲棍球棒”要更晚才出现。",
            )),
            try_this: Some(tr(
                "Raise the rate toward the ideal capacity and watch ρ and the margin in the table.",
                "把到达率逐步提高到接近理想上界，观察表中的 ρ 和余量。",
            )),
            spot: "q-capacity",
            playback: None,
            minutes: None,
            hop: None,
            // ρ's row is the question worked out; the busy workers' row, L = λ × service time
            // against the pool, is the same share; the queue table's ρ and its simulation
            // say it too, and so does the busy chart's mean line (its peaks, along the pool's
            // limit, invite 100 % until the mean beside them is read).
            // The time-in-system curve marks this setting at its ρ, too.
            veil: &["cap-row-rho", "cap-row-busy", "q-rho", "q-rho-sim", "q-queue-chart", "q-curve"],
        },
        Step {
            link: "page=queue&preset=source-002",
            knobs: &["ceiling", "rate"],
            title: tr(
                "A {set-ceiling} ceiling, and two kinds of spare",
                "{set-ceiling} 接纳上限与两种“余量”",
            ),
            narration: tr(
                "Use only {set-ceiling} of the ideal capacity: admit {cap-admit}/s. The rest, {cap-headroom}/s, is headroom; today's traffic is {cap-margin}/s below the admission limit — the margin.",
                "只使用理想能力的 {set-ceiling}：可接纳 {cap-admit}/秒。剩下的 {cap-headroom}/秒 是能力余量；当前流量距接纳上限还有 {cap-margin}/秒——这是到上限的余量。",
            ),
            question: Some(tr(
                "Traffic grows to {cap-admit}/s. Which spare is gone?",
                "流量涨到 {cap-admit}/秒。哪一种余量没有了？",
            )),
            answer: Some(tr(
                "The margin: admission is now full. The headroom of {cap-headroom}/s is still there, kept on purpose for bursts, slow calls and retries. Two different spares: never call both 'spare capacity'.",
                "到上限的余量：接纳上限已经用满。{cap-headroom}/秒 的能力余量仍在，它是为突发、慢调用和重试刻意留出的。两种“余量”不能混称。",
            )),
            try_this: Some(tr("Set the rate to {cap-admit:n}.", "把到达率设为 {cap-admit:n}。")),
            spot: "q-capacity",
            playback: None,
            minutes: None,
            hop: None,
            veil: &[],
        },
        Step {
            link: "page=queue&preset=source-002&workers=7",
            knobs: &["workers", "ceiling"],
            title: tr("The fewest workers", "最少需要几个工作线程"),
            narration: tr(
                "How few workers keep {set-rate:n}/s under the {set-ceiling} ceiling? ceil({set-rate:n} ÷ ({cap-mu} × {= set-ceiling / 100})) = {cap-min-workers}. With {set-workers:n}, ρ = {cap-rho}: admission allows {cap-admit}/s, a margin of {cap-margin}/s.",
                "要让 {set-rate:n}/秒 保持在 {set-ceiling} 上限之内，最少需要几个工作线程？ceil({set-rate:n} ÷ ({cap-mu} × {= set-ceiling / 100})) = {cap-min-workers}。用 {set-workers:n} 个时 ρ = {cap-rho}：可接纳 {cap-admit}/秒，距上限的余量 {cap-margin}/秒。",
            ),
            question: Some(tr(
                "And with {= cap-min-workers - 1} workers?",
                "那么 {= cap-min-workers - 1} 个工作线程呢？",
            )),
            answer: Some(tr(
                "ρ passes the ceiling and the margin turns negative: today's traffic no longer fits the plan. The pool still copes on average (ρ < {#1}), but waits grow fast. These are calculations under stated assumptions, not measured capacity.",
                "ρ 超过上限，距上限的余量变为负数：当前流量已不在计划之内。平均而言池子仍能应付（ρ < {#1}），但等待时间迅速变长。这些是明确假设下的计算，不是实测容量。",
            )),
            try_this: Some(tr(
                "Set {= cap-min-workers - 1} workers and read ρ, the admitted rate and the margin.",
                "设为 {= cap-min-workers - 1} 个工作线程，读出 ρ、可接纳速率和余量。",
            )),
            spot: "q-capacity",
            playback: None,
            minutes: None,
            hop: None,
            veil: &[],
        },
        Step {
            link: "page=queue&preset=source-002",
            knobs: &["w", "rate"],
            title: tr("Little's law: L = λW", "Little 定律：L = λW"),
            narration: tr(
                "In a stable system, the mean number inside is the arrival rate times the time inside. With W = {set-ms} of service: {cap-busy} busy workers. With an end-to-end W of {set-w}: {cap-in-system} requests in the system.",
                "在稳定、长期平均存在的系统中，平均在途数等于到达率乘以停留时间。W 取服务时间 {set-ms}：平均忙工作线程数 {cap-busy}。W 取端到端 {set-w}：平均系统内请求数 {cap-in-system}。",
            ),
            question: Some(tr(
                "{cap-in-system} requests in the system on average: are that many CPU cores enough?",
                "平均有 {cap-in-system} 个请求在系统内：这么多个 CPU 核就够了吗？",
            )),
            answer: Some(tr(
                "L cannot tell you. It also counts requests that hold no core (waiting in a queue, on I/O or on calls downstream), and it is an average: it says nothing about p99, bursts, locks or other bottlenecks. The {set-w} is an assumed end-to-end time; this pool alone (M/M/{set-workers:n}) averages {q-time} and {q-l} requests inside.",
                "L 回答不了这个问题。它也计入不占用 CPU 核的请求（在队列里、在 I/O 上或在下游调用上等待的），而且只是平均数：它说明不了 p99、突发、串行锁或其他资源瓶颈。{set-w} 是假定的端到端时间；仅这个池（M/M/{set-workers:n}）平均停留 {q-time}，池内平均 {q-l} 个请求。",
            )),
            try_this: Some(tr("Double W and see L double with it.", "把 W 加倍，看 L 也随之加倍。")),
            spot: "q-capacity",
            playback: None,
            minutes: None,
            hop: None,
            veil: &[],
        },
        Step {
            link: "page=admission&preset=source-002",
            knobs: &["b", "r", "limit"],
            title: tr("The token bucket, step by step", "逐步推演令牌桶"),
            narration: tr(
                "B = {set-b:n} tokens, r = {set-r}, starting full; at most {set-limit:n} request in flight; {#1} token = {adm-per-token} integer credits, so refills are exact. {= adm-admitted + adm-rejected} arrivals: {adm-admitted} admitted, {adm-rejected} rejected — each for a different reason: concurrency_limit, cost_exceeds_capacity, rate_limit.",
                "B = {set-b:n} 个令牌，r = {set-r}，初始为满；并发上限 {set-limit:n}；{#1} 个令牌 = {adm-per-token} 个整数额度单位（credit），补充精确无漂移。{= adm-admitted + adm-rejected} 个到达：接纳 {adm-admitted} 个，拒绝 {adm-rejected} 个——原因各不相同：concurrency_limit、cost_exceeds_capacity、rate_limit。",
            ),
            question: Some(tr(
                "At {adm-t4} the first request completes and another arrives. Does the newcomer get the slot?",
                "{adm-t4} 时第一个请求完成，同时又到达一个请求。新来的能拿到并发名额吗？",
            )),
            answer: Some(tr(
                "Yes: completions at or before now are released before arrivals are processed, in input order; and the bucket has refilled to {set-b:n} tokens, exactly its cost. A rejection consumes nothing: the request refused at {adm-t7} for rate_limit is told to retry after {adm-ra7}, when exactly {#1} token will be there (an HTTP Retry-After header counts whole seconds, so on the wire it reads {#1}).",
                "能：同一时刻先回收结束时间不晚于当前时刻的在途请求，再按输入顺序处理到达；而桶已补充到 {set-b:n} 个令牌，恰好等于它的成本。拒绝不扣令牌：在 {adm-t7} 因 rate_limit 被拒的请求被告知 {adm-ra7} 后重试，那时恰好有 {#1} 个令牌（HTTP 的 Retry-After 头以整秒计，线上会向上取整为 {#1}）。",
            )),
            try_this: Some(tr(
                "Raise the concurrency limit to {= set-limit + 1} and read the step table row by row: which rejection disappears, and which arrival is now refused instead, at what time and for what reason? (The counts by reason barely move: the refusal moves to another arrival.)",
                "把并发上限提高到 {= set-limit + 1}，逐行阅读步骤表：哪一个拒绝消失了？现在改为哪个到达被拒，在什么时刻、因为什么原因？（按原因统计的数字几乎不变：被拒的换成了另一个到达。）",
            )),
            spot: "adm-steps",
            playback: None,
            minutes: None,
            hop: None,
            // The newcomer's row is the answer; every later row gives it away too ("#4
            // completes", then token levels only its cost explains), and so do the tokens chart's
            // dot and drop at that moment.
            veil: &[
                "adm-step-5",
                "adm-step-6",
                "adm-step-7",
                "adm-step-8",
                "adm-step-9",
                "adm-step-10",
                "adm-tokens",
                // The bucket replays each arrival's verdict ("admitted (HTTP 200)") and the slots in use.
                "adm-bucket",
            ],
        },
        Step {
            link: "page=admission&preset=cost-above-b",
            knobs: &["cost", "b"],
            title: tr("A request that costs more than B", "成本高于桶容量 B 的请求"),
            narration: tr(
                "Requests costing {set-cost:n} tokens arrive once a second at a bucket of B = {set-b:n}: the bucket is full every time. {adm-rejected} rejected, {adm-admitted} admitted.",
                "成本为 {set-cost:n} 个令牌的请求每秒到达一次，桶容量 B = {set-b:n}：每次到达时桶都是满的。拒绝 {adm-rejected} 个，接纳 {adm-admitted} 个。",
            ),
            question: Some(tr(
                "Would waiting longer between requests help?",
                "请求之间等得更久一些，会有帮助吗？",
            )),
            answer: Some(tr(
                "No: a full bucket holds at most B, so a cost above B can never be paid. The model rejects it at once as cost_exceeds_capacity instead of letting it wait in vain. Raise B, or split the work.",
                "不会：桶最满也只有 B，成本超过 B 的请求永远付不起。模型直接以 cost_exceeds_capacity 拒绝，而不是让它白等。要么提高 B，要么拆分工作。",
            )),
            try_this: Some(tr("Set the cost to {set-b:n}.", "把成本设为 {set-b:n}。")),
            spot: "adm-steps",
            playback: None,
            minutes: None,
            hop: None,
            veil: &[],
        },
        Step {
            link: "page=admission&preset=steady-above-r",
            knobs: &["r", "gap"],
            title: tr("Steady above r: what does the burst buy?", "持续高于 r：突发容量能换来什么？"),
            narration: tr(
                "{set-n}, one every {set-gap} — {= 1000 / set-gap}/s against r = {set-r:n}/s. {adm-admitted} admitted, {adm-rejected} rejected. The step table replays the run one event at a time from the first, the current event highlighted: watch for the first rejection, once the full bucket's spare tokens are spent.",
                "{set-n}，每 {set-gap} 一个——每秒 {= 1000 / set-gap} 个，而 r = {set-r:n}/秒。接纳 {adm-admitted} 个，拒绝 {adm-rejected} 个。步骤表从第一个事件起逐个回放，当前事件高亮：留意第一次拒绝，它出现在满桶多出的令牌用完之后。",
            ),
            question: Some(tr(
                "Does the bucket size B raise the rate that gets in over time?",
                "桶容量 B 能提高长期的接纳速率吗？",
            )),
            answer: Some(tr(
                "No: B only decides how long an excess is absorbed (here the full bucket covers the first {= ( set-b - set-cost ) / ( 1000 / set-gap - set-r )} s); in the long run at most r per second get in. A token bucket allows bursts; it neither spaces requests {= 1000 / set-r} ms apart nor limits how long one holds a worker — that is the concurrency limit's job.",
                "不能：B 只决定超出部分能被吸收多久（这里满桶撑过前 {= ( set-b - set-cost ) / ( 1000 / set-gap - set-r )} s）；长期来看每秒最多接纳 r 个。令牌桶允许突发，但既不强制每次间隔 {= 1000 / set-r} ms，也不限制一个请求占用工作线程多久——那是并发上限的职责。",
            )),
            try_this: Some(tr(
                "Set the gap to {= 1000 / set-r} ms: exactly r per second.",
                "把间隔设为 {= 1000 / set-r} ms：恰好每秒 r 个。",
            )),
            spot: "adm-steps",
            playback: None,
            minutes: None,
            hop: None,
            veil: &[],
        },
        Step {
            link: "page=calculator&attempts=4,4,4",
            knobs: &["attempts"],
            title: tr("Admitted is not the load: retries multiply it", "接纳量不等于负载：重试会把它放大"),
            narration: tr(
                "The ceiling counts requests, not attempts, and here every layer retries: 'first + {= set-attempts.1 - 1} retries' at each of {set-layers}. The calculator's amplification, on the screen once the answer is revealed, is what one admitted request becomes at the deepest service.",
                "接纳上限计的是请求，不是尝试；而这里每一层都会重试：{set-layers}每层都“首次 + 重试 {= set-attempts.1 - 1} 次”。计算器的放大倍数（揭晓答案后显示）就是一个被接纳的请求到达最深的服务时变成的调用次数。",
            ),
            question: Some(tr(
                "'First + {= set-attempts.1 - 1} retries' at {set-layers}: {= set-attempts.1 - 1} × {= set-attempts.2 - 1} × {= set-attempts.3 - 1}, or more?",
                "{set-layers}各“首次 + 重试 {= set-attempts.1 - 1} 次”：是 {= set-attempts.1 - 1} × {= set-attempts.2 - 1} × {= set-attempts.3 - 1}，还是更多？",
            )),
            answer: Some(tr(
                "More: {= set-attempts.1 - 1} retries plus the first is {set-attempts.1}, and {set-attempts.1:n} × {set-attempts.2:n} × {set-attempts.3:n} = {out-amplification}. With the calculator's own load ({set-rpd:n} requests a day, an average of {out-avg}/s, a peak ×{set-peak:n}; not the admitted rate of the steps before), a peak of {out-peak} requests/s becomes {out-worst} calls/s at the deepest service. Always count attempts with the first included; retry only recoverable errors on idempotent calls, at one layer, within a total deadline — or retries spend the headroom you planned.",
                "更多：重试 {= set-attempts.1 - 1} 次加上首次是 {set-attempts.1}尝试，{set-attempts.1:n} × {set-attempts.2:n} × {set-attempts.3:n} = {out-amplification}。按计算器自己的负载（每天 {set-rpd:n} 个请求，平均每秒 {out-avg} 个，峰值 ×{set-peak:n}；不是前面几步的接纳速率），峰值每秒 {out-peak} 个请求时，最深的服务每秒收到 {out-worst} 次调用。尝试次数一定要含首次来数；只对可恢复的错误、且已确认幂等的调用重试，只在一层重试，并受总截止时间约束——否则重试会吃掉你预留的余量。",
            )),
            try_this: Some(tr(
                "Set the attempts to {= set-attempts.1 - 1},{= set-attempts.2 - 1},{= set-attempts.3 - 1}.",
                "把尝试次数设为 {= set-attempts.1 - 1},{= set-attempts.2 - 1},{= set-attempts.3 - 1}。",
            )),
            spot: "out-amplification",
            playback: None,
            minutes: None,
            hop: None,
            // The step's settings (attempts per layer, the first included) and the attempts
            // knobs with their help ("first + 3 retries" is …) answer "3 × 3 × 3, or more?".
            // The settings count first + 3 retries as 4; the in-flight rows, the payload's peak rate
            // and the red box give the amplification away.
            veil: &[
                "lesson-settings",
                "lesson-step-knobs",
                "inflight-normal-after",
                "inflight-degraded-after",
                "out-payload",
                "saturation-warning",
            ],
        },
    ],
};
