//! Source 000's interview, in its own time boxes: 5 min promises, 8 min amplification and
//! in-flight, 12 min the deadline budget, 15 min a slow downstream and recovery, 5 min the
//! metrics; then the two follow-up questions, each with a step that shows the answer.

use crate::lesson::{Lesson, OnReveal, Playback, Step, tr};

pub const LESSON: Lesson = Lesson {
    id: "interview",
    title: tr("Source 000: an interview about a slow profile service", "文档 000：一场关于慢画像服务的面试"),
    summary: tr(
        "Product page → recommendation → profile, run as the source's {#45}-minute interview: promises, amplification, the deadline budget, recovery, metrics, and two follow-ups.",
        "商品页 → 推荐服务 → 画像服务，按来源的 {#45} 分钟面试进行：承诺、放大、截止时间预算、恢复、指标，以及两个追问。",
    ),
    source: "000",
    steps: &[
        Step {
            link: "page=storm&preset=lab11-protected",
            knobs: &["leaf.error"],
            title: tr("What each part promises", "各部分承诺什么"),
            narration: tr(
                "The product facts must be right; recommendations may be missing. Of {set-requests}, {h-a-admission_rejected} were refused at admission ({#429}) and the admitted ones were all answered, with recommendations or without: core success, which counts only admitted requests and degraded answers as served, is {h-a-core_success_rate}.",
                "商品事实必须正确；推荐可以缺席。{set-requests}中，{h-a-admission_rejected} 个在准入处被拒绝（{#429}），被接纳的请求都得到了回答，不论是否带推荐：核心成功率为 {h-a-core_success_rate}，它只统计被接纳的请求，并把降级回答算作已服务。",
            ),
            question: Some(tr(
                "Is an empty recommendation list the same answer as `unavailable`?",
                "空的推荐列表和 `unavailable` 是同一个回答吗？",
            )),
            answer: Some(tr(
                "No. An empty list is a computed result; `unavailable` says the part was degraded. Count them apart: {h-a-succeeded} full answers, {h-a-degraded} degraded.",
                "不是。空列表是计算出的结果；`unavailable` 表示该部分被降级。两者要分开统计：完整回答 {h-a-succeeded} 个，降级 {h-a-degraded} 个。",
            )),
            try_this: Some(tr(
                "Lower the profile service's error rate to {#0.5} and watch full answers replace degraded ones.",
                "把画像服务的错误率降到 {#0.5}，看完整回答如何取代降级回答。",
            )),
            spot: "headline",
            playback: None,
            minutes: Some(5),
            hop: None,
            veil: &[],
        },
        Step {
            link: "page=calculator&attempts=3,3",
            knobs: &["attempts", "peak"],
            title: tr("One request becomes {out-amplification:n}", "一个请求变成 {out-amplification:n} 个"),
            narration: tr(
                "{set-layers} of {set-attempts.1} each multiply: {out-amplification}. At {out-peak} requests/s at peak, the profile service may see up to {out-worst} attempts/s.",
                "{set-layers}各 {set-attempts.1}尝试相乘：{out-amplification}。峰值每秒 {out-peak} 个请求时，画像服务最多可能收到每秒 {out-worst} 次尝试。",
            ),
            question: Some(tr(
                "How many calls in flight at the profile service if each is held {= set-hold / 1000} s?",
                "如果每次调用占用 {= set-hold / 1000} s，画像服务上有多少在途调用？",
            )),
            answer: Some(tr(
                "Little's law: the amplified traffic would need {inflight-normal-after} connections against a pool of {set-pool:n}, up from {inflight-normal-before} without retries.",
                "Little 定律：放大后的流量需要 {inflight-normal-after} 条连接，而连接池只有 {set-pool:n}；不重试时只需 {inflight-normal-before} 条。",
            )),
            try_this: Some(tr(
                "Set the attempts at layer {#2} to {#2}, then at layer {#1} too.",
                "把第 {#2} 层的尝试次数改成 {#2}，再把第 {#1} 层也改成 {#2}。",
            )),
            spot: "out-amplification",
            playback: None,
            minutes: Some(8),
            hop: None,
            // The red box repeats the rows the answer quotes.
            veil: &["saturation-warning"],
        },
        Step {
            link: "page=storm&preset=lab11-unprotected",
            knobs: &["l1.attempts", "l2.attempts"],
            title: tr("Where do the calls go?", "调用都去了哪里？"),
            narration: tr(
                "{set-requests} at once; the profile service holds every call {set-leaf.ms} and then fails; each of the {set-layers:n} layers tries {set-l1.attempts:n} times, the inner one waiting {set-l2.backoff_ms} between tries. Ask first, then press play and watch the call counts grow in the diagram.",
                "{set-requests}同时到达；画像服务每次调用占用 {set-leaf.ms}，然后失败；{set-layers:n} 层各尝试 {set-l1.attempts:n} 次，内层两次尝试之间等待 {set-l2.backoff_ms}。先提问，再按播放，看图中的调用数如何增长。",
            ),
            question: Some(tr(
                "How many calls reach the profile service, and how long does each request take?",
                "有多少次调用到达画像服务？每个请求耗时多久？",
            )),
            answer: Some(tr(
                "{bd-a-hop2}: {set-requests} × {set-l1.attempts:n} × {set-l2.attempts:n}. Each takes {set-l1.attempts:n} × ({set-l2.attempts:n} × {set-leaf.ms:n} + {= set-l2.attempts - 1} × {set-l2.backoff_ms:n}) = {h-a-latency_max}.",
                "{bd-a-hop2}：{set-requests} × {set-l1.attempts:n} × {set-l2.attempts:n}。每个请求耗时 {set-l1.attempts:n} × ({set-l2.attempts:n} × {set-leaf.ms:n} + {= set-l2.attempts - 1} × {set-l2.backoff_ms:n}) = {h-a-latency_max}。",
            )),
            try_this: Some(tr("Set one layer's attempts to {#1}.", "把其中一层的尝试次数改为 {#1}。")),
            spot: "diagram-a",
            // Paused as the first attempts reach the profile service, so the diagram does
            // not count up to the answer before the question is asked; played on, it ends
            // (1,020 ms) at the totals the answer quotes.
            playback: Some(Playback {
                from_ms: 0.0,
                pause_ms: 50.0,
                veil_from_start: false,
                on_reveal: OnReveal::PlayOn,
            }),
            minutes: None,
            hop: Some(2),
            // The cards (900 leaf calls, 9×, p50 1,020 ms) and the load chart's nine bursts answer both questions.
            veil: &["headline", "chart-load-a"],
        },
        Step {
            link: "page=storm&preset=lab11-protected&l2.attempts=3",
            knobs: &["l2.attempts", "l1.deadline"],
            title: tr("The deadline budget travels", "截止时间预算随调用传递"),
            narration: tr(
                "One retrying layer allowed {set-l2.attempts}, a {set-l1.deadline} budget passed down with the call, an admission that lets {set-l1.burst:n} in at once: {bd-a-hop2} calls reach the profile service, the longest request {h-a-latency_max} ({set-leaf.ms:n} + {set-l2.backoff_ms:n} + {set-leaf.ms:n}), {h-a-admission_rejected} requests turned away at once. No request makes a third attempt.",
                "唯一重试的一层允许 {set-l2.attempts}尝试，{set-l1.deadline} 的截止时间预算随调用向下传递，准入一次放行 {set-l1.burst:n} 个：画像服务共收到 {bd-a-hop2} 次调用，最长请求 {h-a-latency_max}（{set-leaf.ms:n} + {set-l2.backoff_ms:n} + {set-leaf.ms:n}），{h-a-admission_rejected} 个请求被立即拒绝。没有一个请求做了第三次尝试。",
            ),
            question: Some(tr("Why is there no third attempt?", "为什么没有第三次尝试？")),
            answer: Some(tr(
                "After {h-a-latency_max} only {= set-l1.deadline - h-a-latency_max} ms of the budget is left, less than the {set-l2.min_useful} minimum useful time the caller requires before it tries (it cannot know how long an attempt will take): the deadline budget refuses {h-a-budget_exhausted} third attempts, and the caller answers `unavailable`.",
                "{h-a-latency_max} 后截止时间只剩 {= set-l1.deadline - h-a-latency_max} ms，少于调用方尝试前要求的 {set-l2.min_useful} 最小有用时间（它无法预知一次尝试要多久）：截止时间预算拒绝了 {h-a-budget_exhausted} 次第三次尝试，调用方回答 `unavailable`。",
            )),
            // A stop of the deadline's slider (300 → 500 ms): a phone's thumb reaches it.
            try_this: Some(tr("Raise the deadline to {#500} ms.", "把截止时间提高到 {#500} ms。")),
            spot: "diagram-a",
            playback: Some(Playback {
                from_ms: 0.0,
                pause_ms: 220.0,
                veil_from_start: false,
                on_reveal: OnReveal::PlayOn,
            }),
            minutes: Some(12),
            hop: None,
            veil: &[],
        },
        Step {
            link: "page=storm&preset=lab11-budget-150",
            knobs: &["l1.deadline"],
            title: tr("A tighter budget: {set-l1.deadline}", "更紧的截止时间：{set-l1.deadline}"),
            narration: tr(
                "The same chain with a {set-l1.deadline} budget. The budget is checked before the backoff sleep and before each attempt.",
                "同样的调用链，截止时间改为 {set-l1.deadline}。退避等待前和每次尝试前都会检查剩余的截止时间。",
            ),
            question: Some(tr(
                "With a {set-l1.deadline} budget, how many calls reach the profile service?",
                "截止时间为 {set-l1.deadline} 时，有多少次调用到达画像服务？",
            )),
            answer: Some(tr(
                "{bd-a-hop2}: one per admitted request. When the first attempt fails at {set-leaf.ms}, only {= set-l1.deadline - set-leaf.ms} ms of the budget is left, less than the {set-l2.min_useful} minimum useful time, so the retry is refused before its backoff even starts.",
                "{bd-a-hop2}：每个被接纳的请求一次。首次尝试在 {set-leaf.ms} 时失败，截止时间只剩 {= set-l1.deadline - set-leaf.ms} ms，少于 {set-l2.min_useful} 的最小有用时间，所以重试在退避开始之前就被拒绝。",
            )),
            try_this: None,
            spot: "headline",
            playback: None,
            minutes: None,
            hop: None,
            // The cards count the calls the question asks for (leaf calls, budget exhausted).
            // The diagram's profile calls are the count asked for, as the cards are.
            veil: &["headline", "diagram-a"],
        },
        Step {
            link: "page=storm&preset=lab11-protected&leaf.ms=300",
            knobs: &["leaf.ms", "cancel"],
            title: tr("A slow downstream: the timeout's outcome is unknown", "下游变慢：超时之后，结果未知"),
            narration: tr(
                "The profile service slows to {set-leaf.ms} a call, past what the {set-l1.deadline} budget allows: {h-a-timeouts} tries time out (both hops added up) and every admitted request is answered degraded. The callers stopped waiting, but the calls went on: {h-a-abandoned_work} calls (both hops added up) were worked for nobody.",
                "画像服务变慢到每次调用 {set-leaf.ms}，超出 {set-l1.deadline} 截止时间所能容纳的范围：{h-a-timeouts} 次尝试超时（两跳合计），每个被接纳的请求都以降级作答。调用方不再等待，调用却还在继续：{h-a-abandoned_work} 次调用（两跳合计）做完了却没人要结果。",
            ),
            question: Some(tr(
                "A call that writes (a payment, an order) times out. Did the write happen?",
                "一次写操作（支付、下单）超时了。写入发生了吗？",
            )),
            answer: Some(tr(
                "Nobody knows: a timeout only says the caller stopped waiting. Here {h-a-abandoned_work} calls were worked after their callers gave up, so a retry could repeat the write. Retries of writes need an idempotency key; and a caller that can cancel its call on timeout saves the downstream the wasted work.",
                "没人知道：超时只说明调用方不再等待。这里有 {h-a-abandoned_work} 次调用在调用方放弃后仍被执行，重试就可能把写入做两次。写操作的重试需要幂等键；调用方若能在超时时取消调用，还能替下游省下这些白做的工作。",
            )),
            try_this: Some(tr(
                "Turn on cancel on timeout: the abandoned work disappears and the answers stay the same (all degraded). Fewer timeouts and deadline refusals are counted too: the inner hop's calls are cancelled before their own timers run out.",
                "打开“超时即取消”：白做的工作消失，应答不变（全部降级）。计到的超时和截止时间拒绝也会减少：内层的调用在自己的计时器到期前就被取消了。",
            )),
            spot: "bd-hops-a",
            playback: None,
            minutes: Some(15),
            hop: None,
            veil: &[],
        },
        Step {
            link: "page=breaker&preset=source-001",
            knobs: &["probes", "open_ms"],
            title: tr("Recovery: a few probes first", "恢复：先放少量探测"),
            narration: tr(
                "A failing downstream recovers; the breaker lets only a few probes through before it closes ({breaker-probes} probes, {breaker-transitions} state changes in this run). In production, then raise concurrency step by step, watching first-attempt success and the queue.",
                "下游从故障中恢复时，熔断器先只放少量探测请求通过，然后才关闭（本次运行 {breaker-probes} 个探测，{breaker-transitions} 次状态变化）。在生产环境里，之后再逐步提高并发，同时观察首次尝试成功率和等待队列。",
            ),
            // The breaker's half-open question; the next step asks about raising a limit.
            question: Some(tr(
                "Why does the breaker let only a few probes through when it half-opens, not all the traffic?",
                "熔断器半开时为什么只放少量探测，而不是放行全部流量？",
            )),
            answer: Some(tr(
                "The breaker does not know whether the downstream has recovered. The calls it refused were never queued or sent later (their callers failed fast or fell back), so closing it sends the normal traffic at once, full traffic on a service that may still be failing, or be cold and short of capacity, and can knock it over again. A few probes find out at little cost: if it is still down, only they fail; only their success closes the breaker. Many instances half-opening together send full traffic at once, so their timers should be spread.",
                "熔断器并不知道下游是否已经恢复。被它拒绝的调用既没有排队，也不会稍后重发（调用方已快速失败或降级），所以一旦关闭，正常流量会立刻全部涌向一个可能仍在出错、或仍在冷启动而容量不足的服务，可能再次把它压垮。少量探测就能以很小的代价探明情况：如果下游仍未恢复，失败的只有这几次探测；只有探测成功才会关闭熔断器。许多实例若同时半开，就等于一下子放行全部流量，所以它们的计时应当错开。",
            )),
            try_this: Some(tr("Allow more probes in half-open.", "允许半开状态放行更多探测。")),
            spot: "breaker-band",
            playback: None,
            minutes: None,
            hop: None,
            veil: &[],
        },
        Step {
            link: "page=storm&preset=metastable-retry-storm&l1.concurrency=10",
            knobs: &["l1.concurrency"],
            title: tr("Then raise concurrency step by step", "然后逐步放开并发"),
            narration: tr(
                "A busy server slowed for a second, as in [the metastable lesson](?lesson=metastable), but the entry admits at most {set-l1.concurrency:n} requests at once: {h-a-succeeded} succeed, {h-a-admission_rejected} are refused at once, {h-a-failed} fail, and {h-a-timeouts} tries time out. The limit keeps the server's queue short enough for a first attempt to finish within its {set-l1.per_try}.",
                "和[亚稳态那一课](?lesson=metastable)一样，繁忙的服务器慢了一秒，但入口同时最多只接纳 {set-l1.concurrency:n} 个请求：成功 {h-a-succeeded} 个，立即拒绝 {h-a-admission_rejected} 个，失败 {h-a-failed} 个，超时 {h-a-timeouts} 次。上限让服务器的队列保持够短，首次尝试能在 {set-l1.per_try} 内完成。",
            ),
            question: Some(tr(
                "Why raise the limit step by step, rather than remove it once the server looks healthy?",
                "服务器看起来恢复后，为什么要逐步提高上限，而不是直接取消？",
            )),
            answer: Some(tr(
                "Each step lets more work in, and the server keeps up only while its queue stays short: here {h-a-timeouts} tries time out. A limit too high when the next slowdown comes lets the queue grow past the timeout again, every timeout adds a retry, and the storm is back; raising it a step at a time finds where that begins while the cost of a mistake is one step. After each step watch first-attempt success, the timeouts and the queue; step back when they rise. (This run's limit is fixed from the start: the Try shows what a limit too high does during the slowdown, not a staged raise.)",
                "每放开一步，进来的工作就多一些；只有队列保持够短，服务器才跟得上：这里有 {h-a-timeouts} 次尝试超时。若下一次变慢来临时上限过高，队列又会长过超时，每次超时都多一次重试，风暴卷土重来；逐步提高上限，能在犯错代价只有一步时找到这个起点。每放开一步都要看首次尝试成功率、超时次数和队列；它们一上升就退回去。（本次运行的上限从一开始就固定：“试一试”展示的是变慢期间上限过高的后果，而不是逐步放开的过程。）",
            )),
            try_this: Some(tr(
                "Raise the limit to {#20}, then {#50}, then {#200}: watch the timeouts and the server's queue.",
                "把上限依次提高到 {#20}、{#50}、{#200}：观察超时次数和服务器的队列。",
            )),
            spot: "chart-inflight-a",
            playback: None,
            minutes: None,
            hop: Some(1),
            veil: &[],
        },
        Step {
            // Step 4's run (a third attempt allowed), so that its refusals by the deadline
            // budget are the ones counted here.
            link: "page=storm&preset=lab11-protected&l2.attempts=3",
            knobs: &["l2.attempts"],
            title: tr("The metrics that tell the story", "讲清故事的指标"),
            narration: tr(
                "In step {#4}'s run, log `original_requests` {h-a-original_requests}, `downstream_attempts` {h-a-downstream_attempts}, `budget_exhausted` {h-a-budget_exhausted}, `admission_rejected` {h-a-admission_rejected} and `degraded` {h-a-degraded} apart; otherwise a dashboard that counts every HTTP {#200} as a success can hide recommendations degraded for everyone.",
                "在第 {#4} 步的运行中，分别记录 `original_requests` {h-a-original_requests}、`downstream_attempts` {h-a-downstream_attempts}、`budget_exhausted` {h-a-budget_exhausted}、`admission_rejected` {h-a-admission_rejected} 和 `degraded` {h-a-degraded}；否则，一块把每个 HTTP {#200} 都算作成功的看板可能掩盖推荐已全量降级。",
            ),
            question: Some(tr("What is the denominator of the success rate?", "成功率的分母是什么？")),
            answer: Some(tr(
                "Decide it before the incident and write it down, since each choice gives another figure: over all {h-a-original_requests} requests, {h-a-succeeded} full answers; over the admitted ones only (the {h-a-admission_rejected} refused at the door counted apart), with degraded answers counted as served, core success is {h-a-core_success_rate}.",
                "要在故障前定义并写下来，因为不同的分母给出不同的数字：以全部 {h-a-original_requests} 个请求为分母，完整回答 {h-a-succeeded} 个；只以被接纳的请求为分母（入口拒绝的 {h-a-admission_rejected} 个另计），并把降级也算作已服务，核心成功率为 {h-a-core_success_rate}。",
            )),
            try_this: None,
            spot: "bd-flow-a",
            playback: None,
            minutes: Some(5),
            hop: None,
            veil: &[],
        },
        Step {
            link: "page=calculator&attempts=2,2",
            knobs: &["attempts", "pool"],
            title: tr(
                "Follow-up: is {#3} → {set-attempts.1} safe?",
                "追问：{#3} 次改为 {set-attempts.1}就安全了吗？",
            ),
            narration: tr(
                "{set-attempts.1} per layer still multiply: {out-amplification}, {out-worst} attempts/s at peak, {inflight-normal-after} in flight against a pool of {set-pool}.",
                "每层 {set-attempts.1}尝试仍然相乘：{out-amplification}，峰值每秒 {out-worst} 次尝试，在途 {inflight-normal-after} 个，而连接池为 {set-pool}。",
            ),
            question: Some(tr("Is {set-attempts.1} safe?", "{set-attempts.1}尝试安全吗？")),
            answer: Some(tr(
                "It depends on the spare capacity: safe only while the calls in flight when the downstream slows still fit the pool. Here {inflight-degraded-after} would need to be in flight against a pool of {set-pool}: not safe. Count it, do not assume it.",
                "取决于剩余容量：只有当下游变慢时的在途调用仍在连接池之内才安全。这里在途会达到 {inflight-degraded-after}，而连接池只有 {set-pool}：不安全。要算出来，不能假设。",
            )),
            try_this: Some(tr(
                "With the pool at {set-pool}, even a single attempt at each layer leaves both slow-downstream rows over it: a slow downstream also needs a timeout or deadline that bounds how long each call holds a connection, and load shedding. Then raise the pool until every row fits, and see what size that takes.",
                "连接池保持 {set-pool}时，即使每层只尝试一次，两行“下游变慢”仍然放不下：慢下游还需要用超时或截止时间限制每次调用占用连接的时长，并配合减载。再调大连接池，直到每一行都放得下，看看需要多大。",
            )),
            spot: "inflight-box",
            playback: None,
            minutes: None,
            hop: None,
            // The red box repeats the row the answer quotes.
            veil: &["saturation-warning"],
        },
        Step {
            link: "page=storm&preset=big-promo-protected",
            knobs: &["s1.per_try", "s1.breaker"],
            title: tr("Follow-up: can a breaker replace a timeout?", "追问：熔断器能代替超时吗？"),
            narration: tr(
                "The big promotion with its protections: recommendations slow to about {~ set-s1.p99 * set-f2.factor / 1000} s at p99. The breaker in front of them refused {h-a-breaker_rejected} calls; the {set-s1.per_try} per-try timeout stopped the caller waiting for {h-a-timeouts} calls already running (the calls themselves ran on: cancel on timeout is off); the slowest request took {h-a-latency_max}.",
                "加了保护的大促：推荐服务的 p99 变慢到约 {~ set-s1.p99 * set-f2.factor / 1000} s。推荐前的熔断器拒绝了 {h-a-breaker_rejected} 次调用；{set-s1.per_try} 的单次超时让调用方不再等待 {h-a-timeouts} 次已在运行的调用（调用本身仍在运行：未开启“超时即取消”）；最慢的请求耗时 {h-a-latency_max}。",
            ),
            question: Some(tr("Can a breaker replace a timeout?", "熔断器能代替超时吗？")),
            answer: Some(tr(
                "No. A breaker decides before a call starts; a call already running still needs an end. Without the recommendation's timeout its slow calls (about {~ set-s1.p99 * set-f2.factor / 1000} s at p99) no longer fail, so a breaker that opens on calls it sees fail never opens (Resilience4j's can also open on a slow-call rate, but it still ends no call already running); how long a user waits is then bounded only by the callers above, whose own per-try timeouts end it.",
                "不能。熔断器在调用开始前做决定；已经开始的调用仍需要结束边界。去掉推荐服务的超时后，它的慢调用（p99 约 {~ set-s1.p99 * set-f2.factor / 1000} s）不再算作失败，而熔断器只会因为看到调用失败而打开，于是永远不会打开（Resilience4j 也能按慢调用比例打开，但它仍然结束不了已在运行的调用）；这时用户要等多久，只能靠上游各调用方自己的单次超时来限定。",
            )),
            try_this: Some(tr(
                "Set the recommendation's per-try timeout to {#0} (off) and watch the breaker chart: without the timeout the slow calls no longer fail, so the breaker never opens; the bulkhead refuses calls instead, and the slowest request is cut only by the app's own per-try timeout.",
                "把推荐服务的单次超时设为 {#0}（关闭），看熔断器状态图：没有超时，慢调用就不再算作失败，熔断器再也不会打开；改由舱壁拒绝调用，最慢的请求只能靠 App 自己的单次超时来截断。",
            )),
            spot: "chart-breaker-a",
            playback: None,
            minutes: None,
            hop: None,
            veil: &[],
        },
    ],
};
