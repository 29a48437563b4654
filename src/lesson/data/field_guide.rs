//! Source 003's field guide, in its own order, around its big-promo incident: ① the SLO,
//! ② timeouts, ③ bounded retries, ④ isolation and the breaker, ⑤ rate limiting and
//! degradation, ⑥ observe and drill.

use crate::lesson::{Lesson, OnReveal, Playback, Step, tr};

pub const LESSON: Lesson = Lesson {
    id: "field-guide",
    title: tr("Source 003: the big promo, protection by protection", "文档 003：大促事故，一层一层加保护"),
    summary: tr(
        "A promotion slows the recommendation service and takes orders down with it. Follow the source's order: SLO, timeouts, bounded retries, isolation and the breaker, rate limiting and degradation, then observe and drill.",
        "大促让推荐服务变慢，并把订单核心也拖垮。按来源的顺序走一遍：SLO、超时、有界重试、隔离与熔断、限流与降级，最后观测与演练。",
    ),
    source: "003",
    steps: &[
        Step {
            link: "page=storm&preset=big-promo",
            knobs: &["slo", "rate"],
            title: tr("SLO first: how much failure may the promo cost?", "先定 SLO：大促能承受多少失败？"),
            narration: tr(
                "Without an objective you cannot say how much failure or degradation is acceptable. Here it is the promo's own check: core success ≥ {set-slo} of admitted requests. The chart adds up the failures against what that objective allows; the dashed line is the whole budget. From {= set-f1.start / 1000} s traffic rises ×{set-f1.factor:n} and recommendations, at a p99 of {set-s1.p99} normally, slow ×{set-f2.factor:n} to a p99 of about {~ set-s1.p99 * set-f2.factor / 1000} s.",
                "没有目标，就无法判断能容忍多少失败和降级。这里的目标是大促自己的验证标准：已接纳请求的核心成功率 ≥ {set-slo}。图中累计的是失败占该目标所允许失败数的比例，虚线就是整个预算。{= set-f1.start / 1000} s 起流量 ×{set-f1.factor:n}，推荐服务平时 p99 为 {set-s1.p99}，变慢 {set-f2.factor:n} 倍，p99 约 {~ set-s1.p99 * set-f2.factor / 1000} s。",
            ),
            question: Some(tr(
                "Only the optional recommendations slow down. How much of the error budget does the promo spend?",
                "变慢的只是可降级的推荐。大促会花掉多少错误预算？",
            )),
            answer: Some(tr(
                "About {h-a-error_budget_spent:times} the whole budget: {h-a-failed} of {h-a-original_requests} requests fail, orders included, although the order core never slowed. The budget here is counted over this run; the source's example ({#99.95 %} a month ≈ {#21.6} minutes) is the same idea over a month.",
                "约为整个预算的 {h-a-error_budget_spent:times}：{h-a-original_requests} 个请求中 {h-a-failed} 个失败，下单也在其中，尽管订单核心从未变慢。这里的预算按本次运行计算；来源的例子（月可用性 {#99.95 %} ≈ {#21.6} 分钟）是同一思路按月计算。",
            )),
            try_this: Some(tr(
                "Set the SLO to {#99 %}: the same failures become a tenth as much of the budget. The objective is a choice; the failures are not.",
                "把 SLO 设为 {#99 %}：同样的失败只占预算的十分之一。目标是选择出来的，失败不是。",
            )),
            spot: "chart-error-budget-a",
            playback: Some(Playback {
                from_ms: 8000.0,
                pause_ms: 20_000.0,
                veil_from_start: false,
                on_reveal: OnReveal::PlayOn,
            }),
            minutes: None,
            hop: None,
            // The chart stops at its scale; the note under it gives the run's peak, which is
            // the answer.
            veil: &["error-budget-off-scale-a"],
        },
        Step {
            link: "page=storm&preset=big-promo&s1.per_try=150",
            knobs: &["s1.per_try"],
            title: tr("Timeouts are the foundation", "超时是地基"),
            narration: tr(
                "One change: the product service waits for recommendations at most {set-s1.per_try}. Now {h-a-failed} requests fail; {h-a-degraded} are answered without recommendations, the slowest after {h-a-latency_max}.",
                "只改一处：商品服务等待推荐最多 {set-s1.per_try}。现在失败 {h-a-failed} 个；{h-a-degraded} 个请求在没有推荐的情况下得到回答，最慢的耗时 {h-a-latency_max}。",
            ),
            question: Some(tr(
                "Why does a timeout on an optional dependency save the order path?",
                "为什么给可降级的依赖加超时，就救回了下单链路？",
            )),
            answer: Some(tr(
                "Order and recommendation calls share {set-l2.shared_pool:n} threads. Without a timeout a thread waits as long as recommendations take and order calls queue behind it; with one, every thread is back within {set-s1.per_try}. The wait ends, not the work: recommendations still receive {bd-a-hop3} calls, {bd-a-c2-timeouts} of them abandoned by their caller. (The model gives recommendations unlimited workers, so that abandoned work costs nothing here; a real slow service would be pushed further.)",
                "订单调用和推荐调用共用 {set-l2.shared_pool:n} 个线程。没有超时，线程要一直等到推荐返回，订单调用排在后面；有了超时，每个线程最多 {set-s1.per_try} 就能释放。结束的是等待，不是工作：推荐服务仍收到 {bd-a-hop3} 次调用，其中 {bd-a-c2-timeouts} 次已被调用方放弃。（模型给推荐服务不限量的工作线程，所以这些被放弃的工作在这里没有代价；真实的慢服务会被压得更慢。）",
            )),
            try_this: Some(tr(
                "Set the timeout to {#0} (off), then to {#1,000} ms.",
                "把超时设为 {#0}（关闭），再设为 {#1,000} ms。",
            )),
            spot: "chart-outcomes-a",
            playback: Some(Playback {
                from_ms: 9000.0,
                pause_ms: 16_000.0,
                veil_from_start: false,
                on_reveal: OnReveal::PlayOn,
            }),
            minutes: None,
            hop: None,
            veil: &[],
        },
        Step {
            link: "page=storm&preset=big-promo",
            knobs: &["l1.attempts"],
            title: tr("Bounded retries: retries feed the fire", "有界重试：重试在火上浇油"),
            narration: tr(
                "Back to the promo without that timeout. The app gives up after {= set-l1.per_try / 1000} s and retries at once, {set-l1.attempts:n} attempts in all: {h-a-original_requests} requests became {bd-a-hop1} calls to the product service ({h-a-amplification}).",
                "回到没有那个超时的大促。App 等 {= set-l1.per_try / 1000} s 就放弃并立即重试，共 {set-l1.attempts:n} 次尝试：{h-a-original_requests} 个请求变成了对商品服务的 {bd-a-hop1} 次调用（{h-a-amplification}）。",
            ),
            question: Some(tr(
                "Set the app to {#1} attempt. Does the order path come back?",
                "把 App 的尝试次数设为 {#1}，下单链路会恢复吗？",
            )),
            answer: Some(tr(
                "No: without a timeout the shared threads still fill, and the requests still fail. Retries did not start the outage, and here they saved no request either: they multiplied the calls and the users' wait, and each timed-out attempt left its work behind ({h-a-abandoned_work} abandoned calls, every hop added up). Against a service with bounded workers that extra work, sent when capacity is lowest, deepens the overload. Retry only transient errors, at one layer, with backoff, jitter and a budget.",
                "不会：没有超时，共享线程照样被占满，请求照样失败。重试没有引发故障，在这里也没有多救回一个请求：它成倍增加了调用和用户的等待，每次超时的尝试还把工作留在身后（各跳相加共 {h-a-abandoned_work} 次被放弃的调用）。面对工作线程有限的服务，这些在容量最紧张时多出的工作会加深过载。只对短暂错误重试，只在一层重试，配合退避、抖动和重试预算。",
            )),
            try_this: Some(tr(
                "Set the attempts to {#1} and compare the calls the product service receives.",
                "把尝试次数设为 {#1}，比较商品服务收到的调用数。",
            )),
            spot: "bd-hops-a",
            playback: None,
            minutes: None,
            hop: None,
            veil: &[],
        },
        Step {
            link: "page=storm&preset=bulkhead-shared-vs-isolated",
            knobs: &["s1.pool", "l1.shared_pool"],
            title: tr("Isolation: one shared pool sinks the ship", "隔离：一个共享池拖沉整艘船"),
            narration: tr(
                "The product service calls the order core and recommendations on one pool of {set-l1.shared_pool:n} threads. Recommendations slow down ×{set-f1.factor:n} from {= set-f1.start / 1000} s to {= set-f1.end / 1000} s; the order core stays fast. Watch the pool under the product box.",
                "商品服务调用订单核心和推荐服务时共用一个有 {set-l1.shared_pool:n} 个线程的池。推荐服务在 {= set-f1.start / 1000} s 到 {= set-f1.end / 1000} s 之间慢 {set-f1.factor:n} 倍；订单核心一直很快。看商品服务下方的线程池。",
            ),
            question: Some(tr(
                "The order core never slows down. How many requests fail?",
                "订单核心从未变慢。有多少请求失败？",
            )),
            answer: Some(tr(
                "{h-a-failed}: their order-core call timed out waiting for a thread that slow recommendation calls held; over the whole run the order core itself received only {bd-a-hop1} calls (the diagram counts them up to the playhead). Core success falls to {h-a-core_success_rate}. A healthy dependency goes down with a sick one because they share the compartment.",
                "{h-a-failed} 个：它们的订单核心调用在等待被慢推荐调用占住的线程时超时；整个运行中订单核心本身只收到 {bd-a-hop1} 次调用（图中的计数只到播放头）。核心成功率降到 {h-a-core_success_rate}。健康的依赖被病了的依赖连坐，因为它们共用一个舱。",
            )),
            try_this: Some(tr(
                "Give recommendations their own pool and compare.",
                "给推荐服务独立的池，再比较。",
            )),
            spot: "diagram-a",
            // The answer explains the moment: the shared pool full, its queue long (played on,
            // the pool drains and the picture that explains it is gone).
            playback: Some(Playback {
                from_ms: 4000.0,
                pause_ms: 9000.0,
                veil_from_start: false,
                on_reveal: OnReveal::Stay,
            }),
            minutes: None,
            hop: None,
            // The SLO line under the headline counts the failures asked for; the order core is
            // the chain's leaf, so the leaf-attempts card is the order core's calls the answer
            // quotes.
            veil: &["slo-status-a", "h-a-downstream_attempts"],
        },
        Step {
            link: "page=storm&preset=bulkhead-shared-vs-isolated&s1.pool=own&s1.bulkhead=10&s1.bulkhead_queue=0",
            knobs: &["s1.bulkhead", "s1.bulkhead_queue"],
            title: tr("A bulkhead for recommendations", "给推荐服务一个舱壁"),
            narration: tr(
                "Recommendations now have their own compartment: at most {set-s1.bulkhead:n} calls at once, no queue; beyond that they are refused and the page is answered without them. The order core keeps the {set-l1.shared_pool:n} threads to itself.",
                "推荐服务有了自己的舱位：最多 {set-s1.bulkhead:n} 个并发调用，不排队；超出即拒绝，页面在没有推荐的情况下回答。订单核心独占那 {set-l1.shared_pool:n} 个线程。",
            ),
            question: Some(tr(
                "How many requests fail now, and what does it cost?",
                "现在有多少请求失败？代价是什么？",
            )),
            answer: Some(tr(
                "{h-a-failed}; core success {h-a-core_success_rate}. The price is visible: {h-a-bulkhead_rejected} recommendation calls refused at once, {h-a-degraded} pages without recommendations. Refusing is more controllable than queueing without bound: fast feedback, predictable capacity.",
                "{h-a-failed} 个；核心成功率 {h-a-core_success_rate}。代价清楚可见：{h-a-bulkhead_rejected} 次推荐调用被立即拒绝，{h-a-degraded} 个页面没有推荐。拒绝比无限排队更可控：反馈快，容量可预测。",
            )),
            try_this: Some(tr(
                "Set the bulkhead to {#0} (no limit): fewer pages degrade here only because the model gives an unlimited pool endless threads; a real pool runs out of threads or connections.",
                "把舱壁设为 {#0}（不限）：这里降级的页面会变少，只是因为模型给不限量的池无穷多的线程；真实的池会耗尽线程或连接。",
            )),
            spot: "headline",
            playback: None,
            minutes: None,
            hop: None,
            // The SLO line, the error budget and the successes (total less them is the degraded) answer it.
            veil: &["slo-status-a", "h-a-succeeded", "chart-error-budget-a"],
        },
        Step {
            link: "page=breaker&preset=source-003",
            knobs: &["failure_pct", "open_ms"],
            title: tr("The breaker: stop knocking on a sick door", "熔断：依赖已经病了，就先别敲门"),
            narration: tr(
                "The breaker keeps the last {set-window:n} calls and opens when it holds at least {set-min_calls:n} and at least {set-failure_pct} failed. The dependency is down from {= set-phase_ms.1 / 1000} s to {= ( set-phase_ms.1 + set-phase_ms.2 ) / 1000} s, at {set-rate:n} calls/s: {breaker-rejected} calls fail fast while it is open, {breaker-probes} probes test it in half-open, {breaker-transitions} state changes in all.",
                "熔断器保留最近 {set-window:n} 次调用，窗口内至少 {set-min_calls:n} 次且失败率 ≥ {set-failure_pct} 时打开。依赖在 {= set-phase_ms.1 / 1000} s 到 {= ( set-phase_ms.1 + set-phase_ms.2 ) / 1000} s 之间宕机，每秒 {set-rate:n} 次调用：打开期间 {breaker-rejected} 次调用快速失败，半开时 {breaker-probes} 次探测，共 {breaker-transitions} 次状态变化。",
            ),
            question: Some(tr(
                "The dependency goes down at {= set-phase_ms.1 / 1000} s. How many failures does the breaker need before it opens?",
                "依赖在 {= set-phase_ms.1 / 1000} s 宕机。熔断器要看到多少次失败才会打开？",
            )),
            answer: Some(tr(
                "{= set-window * set-failure_pct / 100}: {set-failure_pct} of a full window of {set-window:n} — {= set-window * set-failure_pct / 100 / set-rate} s of failures at {set-rate:n} calls/s. The first half-open probes still meet the outage, so it opens again; the next ones succeed and it closes. A breaker is the caller's local protection for one dependency, not a health check.",
                "{= set-window * set-failure_pct / 100} 次：满窗口 {set-window:n} 次的 {set-failure_pct}，按每秒 {set-rate:n} 次就是 {= set-window * set-failure_pct / 100 / set-rate} s 的失败。第一次半开时探测仍遇到宕机，熔断器再次打开；下一次探测成功，它才关闭。熔断是调用方针对某个依赖的本地保护，不是健康检查。",
            )),
            try_this: Some(tr(
                "Shorten the open time to {#2} s: more probes, more state changes.",
                "把打开时间缩短到 {#2} s：探测更多，状态变化也更多。",
            )),
            spot: "breaker-band",
            playback: None,
            minutes: None,
            hop: None,
            // The band opening and the transitions table's tally answer how many failures open it.
            veil: &["breaker-band", "breaker-changes", "breaker-transitions"],
        },
        Step {
            link: "page=admission&preset=source-003",
            knobs: &["b", "n"],
            title: tr("Rate limiting: overload becomes a clear refusal", "限流：把过载变成明确的拒绝"),
            narration: tr(
                "A token bucket of {set-b:n} meets {set-n:n} requests at the same instant. Each request costs {set-cost:n} token; the bucket refills at a fixed rate.",
                "容量为 {set-b:n} 的令牌桶在同一时刻遇到 {set-n:n} 个请求。每个请求消耗 {set-cost:n} 个令牌；令牌按固定速率补充。",
            ),
            question: Some(tr(
                "How many get in, and what do the others hear?",
                "有多少个被放行？其余的收到什么？",
            )),
            answer: Some(tr(
                "{adm-admitted} get {#200}; {adm-rejected} get {#429} at once, with Retry-After saying when tokens return. A rejection consumes nothing. On the storm page such {#429}s are counted on their own line, not spent from the error budget; the client must honour Retry-After and back off with jitter: the refused all hear the same Retry-After, and retrying together at it they meet an almost empty bucket again, or the refusals turn into a retry storm.",
                "{adm-admitted} 个得到 {#200}；{adm-rejected} 个立即得到 {#429}，Retry-After 告知何时会有令牌。拒绝不消耗令牌。在重试风暴页上，这类 {#429} 单独计数，不计入错误预算；客户端必须遵守 Retry-After，并带抖动地退避：被拒绝的请求收到的 Retry-After 相同，若到点一起重试，又会撞上几乎空的桶，拒绝就会变成重试风暴。",
            )),
            try_this: Some(tr(
                // 10, a stop of the capacity's slider (7 → 10), above the requests sent.
                "Make the bucket {#10}, or send {#20} requests.",
                "把桶容量改成 {#10}，或者发送 {#20} 个请求。",
            )),
            spot: "adm-steps",
            playback: None,
            minutes: None,
            hop: None,
            // Every row (its outcome, and the completions that count the admitted) and the tokens
            // chart's marks answer how many get in.
            veil: &[
                "adm-step-1",
                "adm-step-2",
                "adm-step-3",
                "adm-step-4",
                "adm-step-5",
                "adm-step-6",
                "adm-step-7",
                "adm-step-8",
                "adm-step-9",
                "adm-step-10",
                "adm-step-11",
                "adm-step-12",
                "adm-step-13",
                "adm-step-14",
                "adm-tokens",
                // The bucket replays each arrival's verdict ("admitted (HTTP 200)").
                "adm-bucket",
            ],
        },
        Step {
            link: "page=storm&preset=big-promo-protected",
            knobs: &["f1.factor", "f2.factor"],
            title: tr("Degrade, observe, drill", "降级、观测与演练"),
            narration: tr(
                "The same promo with the source's whole set of protections, as it lists them: an entry rate limit, a recommendation bulkhead of {set-s1.bulkhead:n}, a {set-s1.per_try} timeout, a breaker, the hot list as a labelled, stale fallback. The order each caller applies them in is the diagram's, as the engine runs it. In the breakdown: {h-a-admission_rejected} turned away with {#429}, {h-a-breaker_rejected} recommendation calls cut by the breaker, {h-a-bulkhead_rejected} by the bulkhead, {h-a-degraded} pages with the hot list.",
                "同样的大促，加上来源列出的整套保护：入口限流、推荐舱壁（并发 {set-s1.bulkhead:n}）、{set-s1.per_try} 超时、熔断，以及作为兜底、标明来源与新鲜度的热门榜。每个调用方应用它们的顺序以图中为准，即引擎运行的顺序。看原因分解：{h-a-admission_rejected} 个请求被 {#429} 拒绝，{h-a-breaker_rejected} 次推荐调用被熔断器切断，{h-a-bulkhead_rejected} 次被舱壁拒绝，{h-a-degraded} 个页面返回热门榜。",
            ),
            question: Some(tr(
                "Which number would you alert on, and which would you use to find the cause?",
                "你会用哪个数字告警？又用哪些数字定位原因？",
            )),
            answer: Some(tr(
                "Alert on the users' result: core success {h-a-core_success_rate} against the {set-slo} objective, error budget spent {h-a-error_budget_spent} ({#429}s are outside this denominator, and here they are {h-a-admission_rejected} of {h-a-original_requests} requests: give them their own objective and alert, or refusing users would meet the SLO). Then the {#429}, breaker and bulkhead counts say why. A high degraded rate is allowed but must be visible: recommendations may degrade; payment, stock and permissions may not.",
                "按用户结果告警：核心成功率 {h-a-core_success_rate}，对照 {set-slo} 的目标，错误预算消耗 {h-a-error_budget_spent}（{#429} 不在这个分母里，本次 {h-a-original_requests} 个请求中有 {h-a-admission_rejected} 个被拒：要为它们单独设目标和告警，否则拒绝用户也能“达成” SLO）。再用 {#429}、熔断和舱壁的计数定位原因。降级率可以升高，但必须可见：推荐可以降级；支付、库存、权限不可以。",
            )),
            try_this: Some(tr(
                "Drill: make the surge ×{#10} or the slowdown ×{#100} and see which line absorbs it.",
                "演练：把流量突增调到 ×{#10}，或把推荐变慢调到 ×{#100}，看哪一道防线吸收了冲击。",
            )),
            spot: "bd-hops-a",
            playback: None,
            minutes: None,
            hop: None,
            veil: &[],
        },
    ],
};
