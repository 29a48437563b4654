//! A metastable failure (the storm preset `metastable-retry-storm`): a server at 90 %
//! utilisation, a one-second slowdown as the trigger, retries that sustain the overload
//! after the trigger is gone, why removing the trigger does not end it, and what does.

use crate::lesson::{Lesson, OnReveal, Playback, Step, tr};

pub const LESSON: Lesson = Lesson {
    id: "metastable",
    title: tr(
        "Metastable failure: the storm that outlives its trigger",
        "亚稳态故障：触发因素消失后仍不停息的风暴",
    ),
    summary: tr(
        "A busy server slows down for one second and never comes back while the load lasts: the retries keep it down. See the trigger, the loop that sustains it, and the three levers that end it.",
        "一台繁忙的服务器只慢了一秒，却在负载持续期间再也没有恢复：是重试让它起不来。看触发因素、维持故障的正反馈回路，以及终止它的三个手段。",
    ),
    source: "",
    steps: &[
        Step {
            link: "page=storm&preset=metastable-retry-storm",
            knobs: &["rate", "l1.attempts"],
            title: tr("Busy, but fine", "很忙，但正常"),
            narration: tr(
                "{set-leaf.workers:n} workers of {set-leaf.ms} serve at most {= set-leaf.workers * 1000 / set-leaf.ms} calls/s; {set-rate:n} requests/s arrive, so the server is {= set-rate * set-leaf.ms / 1000 / set-leaf.workers * 100} % busy. The client waits {set-l1.per_try} per try and makes up to {set-l1.attempts}. Until {= set-f1.start / 1000} s nearly every request succeeds.",
                "{set-leaf.workers:n} 个工作线程、每次调用 {set-leaf.ms}，最多每秒处理 {= set-leaf.workers * 1000 / set-leaf.ms} 次调用；每秒到达 {set-rate:n} 个请求，服务器 {= set-rate * set-leaf.ms / 1000 / set-leaf.workers * 100}% 繁忙。客户端每次尝试等待 {set-l1.per_try}，最多尝试 {set-l1.attempts}。{= set-f1.start / 1000} s 之前几乎所有请求都成功。",
            ),
            question: Some(tr(
                "At {= set-rate * set-leaf.ms / 1000 / set-leaf.workers * 100} % utilisation, how much room is left for retries?",
                "利用率 {= set-rate * set-leaf.ms / 1000 / set-leaf.workers * 100}% 时，还剩多少空间给重试？",
            )),
            answer: Some(tr(
                "About {~ set-leaf.workers * 1000 / set-leaf.ms - set-rate} calls/s: retrying one request in {= set-rate / ( set-leaf.workers * 1000 / set-leaf.ms - set-rate )} would fill it. A system this busy stays stable only while almost nothing is retried.",
                "大约每秒 {~ set-leaf.workers * 1000 / set-leaf.ms - set-rate} 次：每 {= set-rate / ( set-leaf.workers * 1000 / set-leaf.ms - set-rate )} 个请求里重试一个就会把它填满。这么忙的系统，只有在几乎没有重试时才是稳定的。",
            )),
            try_this: None,
            spot: "chart-load-a",
            playback: Some(Playback {
                from_ms: 0.0,
                pause_ms: 3900.0,
                veil_from_start: false,
                on_reveal: OnReveal::PlayOn,
            }),
            minutes: None,
            hop: Some(1),
            // Past the trigger the load chart shows the server's calls tripling, the in-flight
            // chart its queue growing and the outcomes chart the failures: what happens to a
            // system with no room once it retries (covered from the playhead on).
            veil: &["chart-load-a", "chart-inflight-a", "chart-outcomes-a"],
        },
        Step {
            link: "page=storm&preset=metastable-retry-storm",
            knobs: &["f1.factor", "f1.end"],
            title: tr("The trigger: one slow second", "触发因素：变慢的一秒"),
            narration: tr(
                "From {= set-f1.start / 1000} s to {= set-f1.end / 1000} s (fault {#1}) the server is {set-f1.factor:n}× slower: {= set-leaf.ms * set-f1.factor} ms a call, about {~ set-leaf.workers * 1000 / ( set-leaf.ms * set-f1.factor )} calls/s for {set-rate:n} arriving.",
                "{= set-f1.start / 1000} s 到 {= set-f1.end / 1000} s 之间（故障 {#1}），服务器的处理时间变为原来的 {set-f1.factor:n} 倍（×{set-f1.factor:n}）：每次调用 {= set-leaf.ms * set-f1.factor} ms，每秒只能处理约 {~ set-leaf.workers * 1000 / ( set-leaf.ms * set-f1.factor )} 次，而每秒到达 {set-rate:n} 个。",
            ),
            question: Some(tr(
                "Once a call must wait more than {set-l1.per_try} for a worker, what does the client do, and what becomes of the call it gave up on?",
                "一旦调用要等 {set-l1.per_try} 以上才轮到工作线程，客户端会怎么做？它放弃的那次调用又会怎样？",
            )),
            answer: Some(tr(
                "It times out and retries at once, adding a call; the abandoned call stays in the queue and will still be served, for nobody. So each timeout adds load instead of removing it: arrivals at the server climb toward {set-l1.attempts:n} × {set-rate:n} calls/s: watch the server's line in the load chart.",
                "它超时并立即重试，又加了一次调用；被放弃的调用仍留在队列里，之后照样被处理，却没人要结果。于是每次超时都增加负载而不是减少负载。到达服务器的调用数逼近每秒 {set-l1.attempts:n} × {set-rate:n} 次，请看负载图中服务器的曲线。",
            )),
            try_this: None,
            spot: "chart-load-a",
            playback: Some(Playback {
                from_ms: 3900.0,
                pause_ms: 5100.0,
                veil_from_start: true,
                on_reveal: OnReveal::PlayOn,
            }),
            minutes: None,
            hop: Some(1),
            // The server's calls jumping to about three times the rate and its queue growing
            // (both charts covered from the trigger on), the closed-form worst case beside the
            // simulation, and the counts of retries and of abandoned calls still served: each
            // answers what the client does and what becomes of the call.
            veil: &[
                "chart-load-a",
                "chart-inflight-a",
                "formulas",
                "h-a-amplification",
                "h-a-retries",
                "h-a-abandoned_work",
                "breakdown-a",
            ],
        },
        Step {
            link: "page=storm&preset=metastable-retry-storm",
            knobs: &["f1.end", "l1.attempts"],
            title: tr("The trigger is gone, the storm stays", "触发因素消失了，风暴还在"),
            narration: tr(
                "At {= set-f1.end / 1000} s the server is fast again. Yet no request succeeds after the trigger until the load stops at {= set-duration / 1000} s: {h-a-succeeded} successes in the whole run, nearly all before {= set-f1.start / 1000} s, and {h-a-failed} failures. After {= set-duration / 1000} s nothing new arrives and this chart falls flat: no request is left to succeed or fail. The server is not idle, though: the queue the storm left keeps it busy until about {~ headline-span / 1000} s (the in-flight and queue chart further down the page shows it).",
                "{= set-f1.end / 1000} s 时服务器已恢复正常速度。然而触发之后，直到 {= set-duration / 1000} s 负载停止，没有一个请求成功：整次运行只有 {h-a-succeeded} 次成功，几乎全在 {= set-f1.start / 1000} s 之前，失败 {h-a-failed} 个。{= set-duration / 1000} s 之后不再有新请求，这张图随之归零：再没有请求可以成功或失败。但服务器并没有闲下来：风暴留下的队列让它一直忙到约 {~ headline-span / 1000} s（页面下方的在途与排队图上可以看到）。",
            ),
            question: Some(tr(
                "The server is healthy again. Why doesn't the system recover?",
                "服务器已经恢复健康，系统为什么不恢复？",
            )),
            answer: Some(tr(
                "Every call now waits past its timeout, so every request makes all {set-l1.attempts:n} attempts: {bd-a-hop1} calls for {h-a-original_requests} requests ({h-a-amplification} over the whole run): about {set-rate:n} × {set-l1.attempts:n} = {= set-rate * set-l1.attempts} calls/s while every attempt times out, far more than the workers' {= set-leaf.workers * 1000 / set-leaf.ms} calls/s. The queue only grows; {h-a-abandoned_work} calls were abandoned by their caller yet still queued for a worker: work done for nobody. The trigger started it; the retries sustain it.",
                "现在每次调用都等过了超时，于是每个请求都用满 {set-l1.attempts:n} 次尝试：{h-a-original_requests} 个请求产生 {bd-a-hop1} 次调用（全程 {h-a-amplification}）：每次尝试都超时时，每秒约 {set-rate:n} × {set-l1.attempts:n} = {= set-rate * set-l1.attempts} 次调用，远超工作线程每秒 {= set-leaf.workers * 1000 / set-leaf.ms} 次的处理能力。队列只增不减；{h-a-abandoned_work} 次调用已被调用方放弃，却仍排队等待工作线程：做的是没人要的工作。触发因素点燃了它，重试让它持续下去。",
            )),
            try_this: Some(tr(
                "Move the end of the trigger back to {= ( set-f1.start + set-f1.end ) / 2} ms: the storm does not care.",
                "把触发结束时间提前到 {= ( set-f1.start + set-f1.end ) / 2} ms：风暴毫不在意。",
            )),
            spot: "chart-outcomes-a",
            playback: Some(Playback {
                from_ms: 5000.0,
                pause_ms: 12_000.0,
                veil_from_start: false,
                on_reveal: OnReveal::PlayOn,
            }),
            minutes: None,
            hop: None,
            veil: &[],
        },
        Step {
            link: "page=storm&preset=metastable-retry-storm&f1.end=4200",
            knobs: &["f1.end", "f1.factor"],
            title: tr("How big must the trigger be?", "触发因素要多大才够？"),
            narration: tr(
                "The same ×{set-f1.factor:n} slowdown, but for {= set-f1.end - set-f1.start} ms instead of a second.",
                "处理时间同样变为原来的 {set-f1.factor:n} 倍，但只持续 {= set-f1.end - set-f1.start} ms，而不是一秒。",
            ),
            question: Some(tr("Does it tip the system into the storm?", "它会把系统推入风暴吗？")),
            answer: Some(tr(
                "No: {h-a-failed} failures, only {h-a-timeouts} timeouts, the slowest request {h-a-latency_max}. The queue stays short enough for most calls to finish within {set-l1.per_try}, and the few retries are absorbed. Past a certain size the trigger tips it, and from then on its size no longer matters.",
                "不会：失败 {h-a-failed} 个，只有 {h-a-timeouts} 次超时，最慢的请求 {h-a-latency_max}。队列足够短，大多数调用都能在 {set-l1.per_try} 内完成，少量重试被吸收。触发一旦超过某个大小就会把系统推入风暴，此后它有多大已经无关紧要。",
            )),
            try_this: Some(tr(
                "Move the fault's end later, {#50} ms at a time (type it in the Fault end box), and find the shortest trigger that tips the system: the map of step {#7} sweeps the trigger in the same {#50} ms rows.",
                "把故障结束时间每次推后 {#50} ms（在“故障结束”输入框里输入），找出能把系统推入风暴的最短触发：第 {#7} 步的地图也按同样的 {#50} ms 一行扫描触发时长。",
            )),
            spot: "chart-outcomes-a",
            playback: Some(Playback {
                from_ms: 3900.0,
                pause_ms: 6000.0,
                veil_from_start: true,
                on_reveal: OnReveal::PlayOn,
            }),
            minutes: None,
            hop: None,
            // The outcomes over the whole run answer "does it tip?" at a glance, and so do the
            // queue's short spike and the flat error budget (all covered from the trigger on).
            veil: &["chart-outcomes-a", "chart-inflight-a", "chart-error-budget-a"],
        },
        Step {
            link: "page=storm&preset=metastable-retry-storm&l1.budget=ratio&l1.budget_max=20&l1.budget_ratio=0.1",
            knobs: &["l1.budget", "l1.budget_max", "cancel"],
            title: tr("A retry budget breaks the loop", "重试预算打断正反馈回路"),
            narration: tr(
                "The same one-second trigger, with a retry budget: {set-l1.budget_max:n} tokens, a retry spends {#1}, a successful first attempt earns {set-l1.budget_ratio:n}. The tokens are gone moments after the trigger; from then on retries are refused ({h-a-retry_budget_denied} in all).",
                "同样一秒的触发，加上重试预算：{set-l1.budget_max:n} 个令牌，每次重试花 {#1} 个，每次首次尝试成功补充 {set-l1.budget_ratio:n} 个。触发后不久令牌就花光了；此后重试一律被拒绝（共 {h-a-retry_budget_denied} 次）。",
            ),
            question: Some(tr(
                "Retries stop right after {= set-f1.start / 1000} s, yet requests keep failing for several seconds. Why, and what finally ends it?",
                "{= set-f1.start / 1000} s 刚过重试就停了，请求却还要再失败好几秒。为什么？最后是什么终止了它？",
            )),
            answer: Some(tr(
                "The queue the trigger built must drain first: without retries the server receives about {set-rate:n} calls/s against {= set-leaf.workers * 1000 / set-leaf.ms}, so it shrinks by about {~ set-leaf.workers * 1000 / set-leaf.ms - set-rate} a second. Once calls finish within {set-l1.per_try} again, first attempts succeed, refill the budget, and the run recovers: {h-a-succeeded} successes, {h-a-failed} failures. Every failure is a retry the budget refused (the {h-a-retry_budget_denied} above): once the tokens were gone, a request whose try timed out ended there.",
                "触发时积下的队列要先排空：没有重试，服务器每秒收到约 {set-rate:n} 次调用，而能处理 {= set-leaf.workers * 1000 / set-leaf.ms} 次，队列每秒只减少约 {~ set-leaf.workers * 1000 / set-leaf.ms - set-rate} 个。等调用重新能在 {set-l1.per_try} 内完成，首次尝试开始成功、回补预算，系统恢复：成功 {h-a-succeeded} 个，失败 {h-a-failed} 个。每个失败都是一次被预算拒绝的重试（即上面的 {h-a-retry_budget_denied} 次）：令牌用完之后，尝试超时的请求就此结束。",
            )),
            try_this: Some(tr(
                "Also turn on cancel (the server drops calls whose caller gave up; the model keeps them by default): with no abandoned work left to drain, the tokens come back soon after the trigger, not seconds later.",
                "再打开“超时即取消”（服务器丢弃调用方已放弃的调用；模型默认保留它们）：队列里不再有被放弃的工作要排空，令牌在触发结束后不久就回来了，而不是再等好几秒。",
            )),
            spot: "chart-budget-a",
            playback: Some(Playback {
                from_ms: 4000.0,
                pause_ms: 12_500.0,
                veil_from_start: false,
                on_reveal: OnReveal::PlayOn,
            }),
            minutes: None,
            hop: None,
            veil: &[],
        },
        Step {
            link: "page=storm&preset=metastable-retry-storm&l1.attempts=1",
            knobs: &["l1.attempts", "rate", "f1.factor"],
            title: tr("Fewer attempts, or less load", "更少的尝试，或更低的负载"),
            narration: tr(
                "No retries at all ({set-l1.attempts:n} attempt per call, the first): the trigger still fails {h-a-failed} requests, but the system recovers by itself once the queue drains; {h-a-succeeded} succeed.",
                "完全不重试（每次调用只尝试 {set-l1.attempts:n} 次）：触发仍让 {h-a-failed} 个请求失败，但队列排空后系统自行恢复；成功 {h-a-succeeded} 个。",
            ),
            question: Some(tr(
                "With {#2} attempts, would it recover? With {#3} attempts at a lower rate?",
                "尝试 {#2} 次会恢复吗？尝试 {#3} 次但降低到达率呢？",
            )),
            answer: Some(tr(
                "Once every attempt times out, the server receives rate × attempts calls/s and drains only below its {= set-leaf.workers * 1000 / set-leaf.ms}. {set-rate:n} × {#2} = {= set-rate * 2}: stuck. With {#3} attempts the rate must stay under about {~ set-leaf.workers * 1000 / set-leaf.ms / 3}/s. This preset keeps the rate constant, so nothing sheds load here; admission at the entry does, in production as in the model: the interview lesson's concurrency limit on this preset keeps the storm from starting.",
                "一旦每次尝试都超时，服务器每秒收到“到达率 × 尝试次数”次调用，只有低于服务器每秒 {= set-leaf.workers * 1000 / set-leaf.ms} 次的处理能力，队列才能排空。{set-rate:n} × {#2} = {= set-rate * 2}：卡住。尝试 {#3} 次时，到达率必须低于每秒约 {~ set-leaf.workers * 1000 / set-leaf.ms / 3} 个。这个预设的到达率全程不变，所以这里没有任何机制减载；能减载的是入口处的准入控制——在生产环境中如此，在模型里也一样：面试课在这个预设上设置的并发上限，能让风暴根本起不来。",
            )),
            try_this: Some(tr(
                "Try {#2} attempts; then {#3} attempts at a rate of {#150}, and at {#200}. At {#150} the server slowed ×{set-f1.factor:n} still keeps up, so no retry fires at all: make the slowdown ×{#6} to see {#3} attempts at {#150} overloaded by the trigger and still recover.",
                "试试 {#2} 次尝试；再试 {#3} 次尝试、到达率 {#150}，以及 {#200}。到达率 {#150} 时，处理时间变为 {set-f1.factor:n} 倍的服务器仍跟得上，根本不会触发重试：把变慢倍数设为 {#6}，就能看到 {#3} 次尝试、到达率 {#150} 时触发造成过载，系统仍能恢复。",
            )),
            spot: "chart-outcomes-a",
            playback: Some(Playback {
                from_ms: 4000.0,
                pause_ms: 12_500.0,
                veil_from_start: false,
                on_reveal: OnReveal::PlayOn,
            }),
            minutes: None,
            hop: None,
            veil: &[],
        },
        Step {
            link: "page=stability&protect=budget",
            knobs: &["protect"],
            title: tr("Stability is a region", "稳定是一片区域"),
            narration: tr(
                "Each cell is one run like those of the steps before: load across, the trigger's length up. Below a third of capacity every trigger is absorbed (the server slowed ×{#3} still keeps up, and three attempts would fit even if all timed out); well above it, a long enough trigger gets stuck; in between, read the boundary off the map. The map is then swept again with a {stab-budget-ratio} retry budget (the storm page's ratio budget, {#100} tokens, not step {#5}'s {#20}). Where cells still get stuck with it, their boundary is dashed; each cell it gets out of has a dot. The line above the map counts both sweeps' cells; the line below it, the stuck cells of each.",
                "每个格子都是一次和前几步一样的运行：横轴是负载，纵轴是触发时长。负载低于容量的三分之一时，任何触发都会被吸收（处理时间变为 {#3} 倍的服务器仍跟得上，即使每次尝试都超时，三次尝试也仍在容量之内）；远高于它时，足够长的触发就会让系统卡住；介于两者之间时，边界请从地图上读出。随后地图会加上 {stab-budget-ratio} 重试预算再扫描一遍（重试风暴页的比例预算，{#100} 个令牌，而不是第 {#5} 步的 {#20} 个）。加上预算后仍卡住的格子，边界画成虚线；靠它脱困的格子各标一个圆点。地图上方一行统计两遍扫描的格子，下方一行给出每遍各有多少格卡住。",
            ),
            question: Some(tr(
                "Where does the boundary move with a {stab-budget-ratio} retry budget?",
                "加上 {stab-budget-ratio} 的重试预算后，边界会移到哪里？",
            )),
            answer: Some(tr(
                "Off the map: with retries capped at a tenth of the traffic, no cell stays stuck: close to capacity the backlog the trigger left is still draining when the run ends, and the closer to capacity, the slower it drains (the map colours the run without the protection: pick a cell near capacity, and the line under the map gives its verdict with it). The next step shows why, without it, a stuck system stays stuck.",
                "移出地图：重试被限制在流量的十分之一后，没有一个格子卡住：接近容量时，触发留下的积压在运行结束时仍在排空，而且越接近容量排空得越慢（地图的颜色是不加保护的运行：选一个接近容量的格子，地图下方那一行会给出它加上保护后的结论）。下一步说明没有预算时，卡住的系统为什么一直卡住。",
            )),
            try_this: Some(tr(
                "Once the answer is revealed (the count, the dashed boundary and the dots are hidden until then), overlay cancel on timeout, then the circuit breaker, and compare the stuck cells counted above the map, the dots, and the dashed boundaries where there is one.",
                "揭晓答案后（在此之前，卡住格数、虚线边界和圆点都是隐藏的），改为叠加“超时即取消”，再试熔断器，比较地图上方统计的卡住格数、圆点，以及虚线边界（如有）。",
            )),
            spot: "stability-map",
            playback: None,
            minutes: None,
            hop: None,
            // The protected sweep's boundary is what the question asks the class to predict;
            // the dots and the count of stuck cells with and without it say how far it moved.
            // The line under the map (a picked cell's verdict with the budget) and the
            // hysteresis chart's budget lines and its two sentences below it give the same
            // answer.
            veil: &[
                "stab-boundary-protected",
                "stab-saved",
                "stab-stuck-count",
                "stab-cell-verdict",
                "hyst-protected",
                "stab-hyst-served",
                "stab-hyst-why",
            ],
        },
        Step {
            link: "page=stability",
            knobs: &["protect"],
            title: tr("Getting out needs less load than getting in", "脱困所需的负载远低于陷入时"),
            narration: tr(
                "One run, no fault: the load climbs in steps from half the capacity to {stab-hyst-top} and comes back down. Going up, goodput follows the load until it breaks; coming down, it stays low well below the load where it broke. The two branches do not meet: that gap is the hysteresis. The grey line is the same ramp with callers making one attempt: it gets back to serving the load on the way down, and the gap between it and the falling line is what the retries add.",
                "一次运行，没有故障：负载从容量的一半逐级升到 {stab-hyst-top}，再逐级降回。上升时，有效吞吐随负载增长，直到崩溃；回落时，即使负载已远低于崩溃点，它仍然很低。两条分支不重合：这段差距就是迟滞。灰色实线是调用方只尝试一次时的同一负载升降过程：回落途中它能重新跟上负载；它与下降线之间的差距，就是重试造成的。",
            ),
            question: Some(tr(
                "The overload is over and the load is back where it was fine before. Why is the system still down?",
                "过载已经结束，负载也回到了之前正常的水平。系统为什么仍然不可用？",
            )),
            answer: Some(tr(
                "Because the load it sees is not the load users send: every timed-out request comes back as retries, and the server still spends its workers on calls whose callers gave up long ago, so it still gets more than it can serve, and the queue never drains. It recovers only when the offered load drops far enough that even the retries fit, or when something caps them (a retry budget, shedding load); and even then only once the backlog of work left in the queue has drained.",
                "因为它承受的负载不是用户发出的负载：每个超时的请求都以重试的形式回来，服务端还在把线程花在调用方早已放弃的调用上，所以它收到的仍超过它能处理的，队列永远排不空。只有当外部负载降得足够低、连重试都能容纳时，或有机制限制重试（重试预算、主动减载）时，它才会恢复；即便如此，也要等队列里积压的工作排空之后。",
            )),
            try_this: Some(tr(
                "Overlay the retry budget and compare its green dash-dot falling line with the orange dashed one.",
                "叠加重试预算，比较绿色点划线与橙色虚线这两条回落线。",
            )),
            spot: "stability-hysteresis",
            playback: None,
            minutes: None,
            hop: None,
            // The chart's note says why the falling branch stays low: the answer.
            veil: &["stab-hyst-why"],
        },
    ],
};
