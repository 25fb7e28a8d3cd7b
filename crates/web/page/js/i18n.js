// Chinese and English texts. Elements name their text with data-i18n (content),
// data-i18n-title (tooltip) or data-i18n-aria (aria-label).

import { settings } from './settings.js';
import { onSite } from './backend.js';

/** How long a move took: `3.4s` under ten seconds, `12s` under a minute, else `2:05`. */
function duration(ms, seconds) {
  if (ms < 10_000) return `${(Math.floor(ms / 100) / 10).toFixed(1)}${seconds}`;
  if (ms < 60_000) return `${Math.floor(ms / 1000)}${seconds}`;
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** A score in centi-soldiers as soldiers, signed: `+0.25`, `−3.80`. */
function pawns(cs) {
  return `${cs >= 0 ? '+' : '−'}${(Math.abs(cs) / 100).toFixed(2)}`;
}

const TEXT = {
  zh: {
    updateReady: '新版本已就绪。', updateNow: '更新',
    unreadableGames: (n) => `浏览器里存着 ${n} 盘读不出的棋局，已原样保留，没有列出。`,
    title: '象棋', games: '棋局', theme: '明暗主题', sound: '声音', board: '棋盘',
    piecesAsPictograms: '棋子改用图形', piecesAsCharacters: '棋子改用汉字',
    newGame: '新局', undo: '悔棋', redo: '还原', hint: '提示', flip: '翻转', offerDraw: '求和',
    resign: '认输', review: '复盘', level: '难度', moves: '着法', notation: '记谱法',
    first: '第一步', prev: '上一步', next: '下一步', last: '最新局面', thinking: '引擎思考',
    reviewTitle: '复盘分析', fenPgn: 'FEN / PGN', savePgn: '保存 PGN', loadPgn: '打开棋谱',
    editor: '摆棋', youPlay: '你执', red: '红方', black: '黑方', both: '双方（分析）',
    cancel: '取消', start: '开始', close: '关闭', ok: '确定',
    savedIn: '每局棋都自动以 PGN 保存在数据目录中。', currentFen: '当前局面（FEN）',
    currentPgn: '本局（PGN）', copy: '复制', pasteHere: '粘贴 FEN 或 PGN 从该局面开始',
    loadThis: '从此开始', toMove: '走棋方', startPos: '初始局面', clear: '清空',
    analyseHere: '分析', playBlack: '执黑对弈', playRed: '执红对弈',
    levelName: ['入门', '新手', '业余', '棋友', '中级', '高级', '强手', '专家', '大师', '特级大师'],
    you: '你', computer: '电脑', player: '棋手', levelN: (n) => `${n} 级`,
    turnRed: '红方走棋', turnBlack: '黑方走棋', yourTurn: '轮到你', thinkingNow: '电脑思考中…',
    pausedNow: '已暂停，点“继续”接着下',
    checkNow: '将军！', viewing: (label, total) => `查看 ${label}（共 ${total} 回合）— 按 End 回到当前局面`,
    redWins: '红胜', blackWins: '黑胜', draw: '和棋', youWin: '你赢了！', youLose: '你输了',
    reasons: {
      checkmate: '将死', stalemate: '困毙（无子可动）', perpetual_check: '长将判负',
      perpetual_chase: '长捉判负', repetition: '重复局面判和', no_capture_limit: '六十回合无吃子',
      insufficient_material: '双方均无过河子力', resignation: '认输', agreement: '双方议和',
      timeout: '超时判负', timeout_against_bare_material: '超时，但对方无子可胜，和棋',
      illegal_move: '违例',
    },
    resultOnly: '棋谱所载的结果，未注明原因',
    puzzles: '习题', puzzlesTitle: '习题', puzzleHint: '提示', puzzleRetry: '重做',
    puzzleShowSolution: '看答案', puzzleNext: '下一题', puzzleTheme: '主题', puzzleAnyTheme: '全部主题',
    puzzleRecord: '我的成绩', puzzleRating: '习题等级分', puzzleGoalMate: (n) => `${n} 步杀`,
    puzzleGoalMaterial: (n) => `${n} 步内得子`, puzzleRatingOf: (r) => `难度 ${r}`,
    puzzleGoalDraw: (n) => `守和（${n} 步）`, puzzleGoalWin: (n) => `保持胜势（${n} 步）`,
    puzzleWrongDraw: '不对：这步守不住和局。',
    puzzleSeen: '这道题做过了：这次不计分。', puzzleYourMove: '轮到你走。', puzzleChecking: '引擎验证中…',
    puzzleWrong: '不对：这步不能取胜。', puzzleRefutation: '对方应着：', puzzleSolved: '解出来了！',
    puzzleSolvedHelped: '解出来了（用过提示或走错过，不计为解出）。', puzzleSolutionWas: '答案：',
    puzzleRight: '对！', puzzleRightGoOn: '对！继续。', puzzleHintPiece: '提示：动这个子（这题不再计为解出）。',
    puzzleHintMove: '提示：走这一步。', puzzleShown: '这是答案。', puzzleRetryNote: '再做一次（不计分）。',
    puzzleCounts: (s, a, n) => `解出 ${s} / 做过 ${a}（共 ${n} 题）`, puzzleUnrated: '不计分',
    theme_mate: '杀棋', theme_material: '得子', theme_fork: '捉双', theme_pin: '牵制',
    theme_discoveredAttack: '闪击', theme_doubleCheck: '双将', theme_sacrifice: '弃子',
    theme_trappedPiece: '困子', theme_doubleCannonMate: '重炮', theme_horseCannonMate: '马后炮',
    theme_smotheredMate: '闷宫', theme_facingGenerals: '对面笑', theme_endgame: '残局',
    theme_oneMove: '一步', theme_short: '两步', theme_long: '三步', theme_veryLong: '四步以上',
    theme_classic: '古谱排局', theme_draw: '守和',
    labTitle: '搜索实验室', labBack: '对弈', labSetup: '局面与设置', labPosition: '局面',
    labFromGame: '当前对局的局面', labFromStart: '初始局面', labFromFen: '输入 FEN', labFen: 'FEN',
    labDepth: '深度', labEvaluation: '评估', labEvalSimple: '简单评估', labEvalEngine: '引擎评估',
    labAlgorithms: '算法', labRun: '运行', labCancel: '停止', labResults: '结果', labAlgorithm: '算法',
    labNodes: '节点', labLeaves: '叶子', labCutoffs: '截断（首着）', labTableHits: '置换表命中',
    labTime: '时间', labValue: '分值', labBest: '最佳着法', labPv: '主要变例', labTree: '搜索树',
    labTreeHelp: '每一行是一步棋：α–β 窗口和分值都从走这步棋的一方看（单位：兵）。✂ 表示这步棋造成截断，灰色的着法因此被剪掉。点一行看它的局面，再点展开应着。',
    labLeft: '左边的算法', labRight: '右边的算法', labBuildTree: '生成搜索树', labEvalTitle: '局面评估分解',
    labChartNodes: '节点数（对数刻度）', labChartTime: '时间（毫秒）', labCutoff: '✂ 截断',
    labMateIn: (n) => `${n} 步杀`, labMatedIn: (n) => `${n} 步被杀`,
    labPrunedBy: (m, iccs) => `${iccs}：被 ${m} 的截断剪掉`,
    labTreeStats: (nodes, cuts, v) => `${nodes} 个节点，${cuts} 次截断，根分值 ${v}`,
    labTruncated: (n) => `只记录了前 ${n} 个节点`, labAfter: (line) => `走 ${line} 之后`, labRoot: '根局面',
    labEngineTotal: (phase, full, scale, tempo, total) => `阶段 ${phase}/${full}，缩放 ${scale}/64，先手 ${tempo}：走棋方总分 ${total}`,
    labSimpleTotal: (total) => `走棋方总分 ${total}`,
    labNetworkTotal: (units, total) => `神经网络评估（内置网络，每方 ${units} 个单元；网络没有分项）：走棋方总分 ${total}`, labMinimal: (d, n) => `深度 ${d} 的最小树（Knuth–Moore）：${n} 个叶子`,
    labAboutTitle: '各算法做什么',
    labStepEnter: (at, a, b) => `进入${at ? ` ${at} 之后的局面` : '根局面'}：窗口 (α, β) = (${a}, ${b})`,
    labStepLeaf: (v) => `到达叶子（或无着可走）：评估为 ${v}（走棋方）`, labStepBack: (m, v) => `${m} 搜完了：对本方值 ${v}`,
    labStepBest: (m, v) => `目前最好：${m}，${v}`, labStepAlpha: (v) => `α 提高到 ${v}`,
    labStepCutoff: (m, best, beta, n) => `截断：${m} 的值 ${best} 已达到 β = ${beta}，对方不会让棋走到这里；其余 ${n} 个着法不搜`,
    labStepReturn: (v) => `返回 ${v}`,
    labStepResearch: (at, a, b) => `重搜 ${at}：零窗口只说明它好过 α，现在用完整窗口 (${a}, ${b}) 求出它的值`,
    labStepScout: (m, v, a) => `${m} 的零窗口试探：至少 ${v}，好过 α = ${a}，要重搜`,
    labStepTable: (v) => `置换表给出答案：${v}（这个局面已经搜到过这个深度）`,
    labResearchMark: '↻ 重搜', labTableMark: '置换表',
    labStepStart: '回到开头', labStepBackBtn: '后退一步', labStepForward: '前进一步', labStepNextCut: '到下一个截断', labStepPlay: '自动播放 / 暂停',
    labStepSpeed: '播放速度', labSpeed_slow: '慢', labSpeed_normal: '中', labSpeed_fast: '快',
    labStepNode: '节点', labStepAlphaCol: 'α', labStepBetaCol: 'β', labStepBestCol: '目前最好', labStepTogether: '两棵树一起单步',
    labTreeView: '搜索树的显示方式', labAsList: '列表', labAsPicture: '树形图', labPicture: '搜索树的树形图',
    labZoomIn: '放大', labZoomOut: '缩小', labZoomFit: '显示整棵树', labZoomActual: '原始大小', labPictureCut: (n) => `✂ ${n} 步未搜`,
    labLimitsNote: (s, n) => `限制：一次运行最多 ${s} 秒，每个算法最多 ${n} 个节点；到了限制的算法标为“未完成”。`,
    labTreeLimitNote: (n) => `每棵树最多记录 ${n} 个节点；搜索更大时只记录前 ${n} 个（值和截断仍然正确），页面会注明。`,
    labSweep: '节点、时间与深度', labElo: '每层深度值多少 Elo', labSweepNodes: '节点数（对数坐标）对深度', labSweepTime: '时间（对数坐标）对深度',
    labEloTitle: '引擎每种固定深度比深度 1 高出的 Elo（95% 误差）',
    labEloNote: '实测：引擎（完整搜索）固定深度 N 对 N+1，每对 200 盘，从 100 个自对弈开局各下两盘、交换先后；逐层相加得出比深度 1 高多少。数据与命令见 docs/LAB.md 的“Elo per depth”。',
    labProgress: (name, i, n, d, nodes, nps, s) => `正在搜索 ${name}（第 ${i}/${n} 个，深度 ${d}）：${nodes} 个节点，每秒 ${nps} 个，${s} 秒`,
    labNotRun: '未运行',
    labLessons: '课题', labHorizon: '地平线效应', labDepth3: '深度 3', labDepth4: '深度 4', labSwing: '摆动',
    labHorizonText: '开局局面，简单评估。只搜到规定深度的 α-β，在深度 3 和深度 4 之间分值摆动好几个兵：最后一步吃了子就停下评估，对方的回吃落在“地平线”之外，看不见。静态搜索在规定深度之后继续只搜吃子，直到局面平静，两个深度的分值就相差无几了。它的值故意不等于极小化极大的值：它看得更远。',
    labAbout: {
      minimax: '极小化极大：红方取最大值、黑方取最小值，每一步都搜到规定深度，不剪枝。代价：b^d 个叶子（开局 b≈44），深度每加一层就乘以 44。正确性：按定义，叶子的评估逐层向上取最大、最小。',
      negamax: '负极大值：同一棵树，写法是双方都取“应着之值的相反数”中的最大者，代码更短。代价与极小化极大相同。正确性：对方的最小值等于我方取反后的最大值，max(a,b) = −min(−a,−b)。',
      alphabeta: 'α-β 剪枝（fail-soft）：某个应着一旦驳倒了这步棋，其余应着就不再搜（截断）；着法按生成顺序。代价：最好时约 2·b^(d/2) 个叶子（Knuth–Moore 最小树），最差时与极小化极大相同，全看着法次序。正确性：窗口 (α, β) 之外的值不会改变根的选择，被剪掉的分支只能证明比已有的更差。',
      'alphabeta-mvvlva': 'α-β，吃子优先：先吃价值最大的子，同样的被吃子先用价值最小的子去吃（MVV-LVA）。代价：排序很便宜；好的着法先试，截断来得早，树小得多。值与极小化极大相同：只改次序。',
      'alphabeta-history': 'α-β 加历史启发：在别处引起过截断（或是最佳）的着法先试，越靠近根得分越多（2^深度）。代价：一张 90×90 的表。值不变：只改次序；好着法在兄弟局面里常常也好，所以截断提前。',
      'alphabeta-tt': 'α-β 加置换表：换个次序到达的同一局面，若已搜得够深就直接用表中的值（精确值、上界或下界），否则先试表中记下的最佳着法。代价：内存（每项约 16 字节）和查表。值不变：表里的值只在搜索深度和窗口都够时才用。',
      'pvs-tt-history': 'NegaScout（PVS）加置换表与历史启发：第一步用完整窗口，其余用零窗口 (α, α+1) 试探，试出更好时才重搜。代价：重搜；次序好时很少需要。正确性：零窗口只回答“是否好过 α”，不好就不用知道具体值，好则用完整窗口求出。',
      'pvs-id-aspiration': '同上，逐层加深（深度 1、2、…），每层用以上一层之值为中心的渴望窗口（±0.5 兵）。代价：浅层的重复搜索和窗口失败时的重搜；置换表和历史表让深层的次序更好，总量常常更小。值不变：窗口失败就放宽重搜。',
      engine: '引擎自己的搜索到同一深度（单线程、不用开局库）：有静态搜索、延伸和裁剪，所以它的值不等于极小化极大之值。代价与好处都在树的形状：同样的深度，它看得更远，也可能剪错。',
      pvs: '对照：只有 NegaScout，着法按生成顺序。看零窗口本身带来多少。',
      'pvs-tt': '对照：NegaScout 只加置换表。',
      'pvs-history': '对照：NegaScout 只加历史启发。',
      'alphabeta-killer': '引擎的想法之一，加在“吃子优先”的 α-β 上：杀手着法。同一层上刚引起过截断的两个非吃子着法，排在吃子之后先试。代价：每层两格。只改次序，值不变；理由是兄弟局面里驳倒对方的往往是同一步棋。',
      'alphabeta-qs': '静态搜索：到了规定深度不马上评估，而是继续只搜吃子（被将军时搜所有应将），直到局面平静；走棋方也可以不吃，按当前评估“停着”。代价：每个叶子后面多一棵吃子树。它看到了地平线之外的吃子，所以值故意与极小化极大不同：它消除了“吃了就停、回吃看不见”的地平线效应。吃子按生成顺序。',
      'alphabeta-qs-mvvlva': '同上，静态搜索里的吃子按 MVV-LVA 排序：先试最可能截断的吃子，吃子树更小。',
      'alphabeta-nullmove': '空着裁剪：先让对方连走两步（自己“让一着”）并少搜两层；若这样对方仍然达不到 β，真走一步只会更好，就直接截断。代价：一次浅搜索；省下整棵子树。依据是“有着可走总比不走好”；在欠行（走什么都变坏）的局面里这不成立，所以被将军时或只剩兵士象时不用。值可能与极小化极大不同。',
      'alphabeta-lmr': '后续着法减少搜索（LMR）：排在第三个以后、不吃子也不将军的着法先少搜一层，只有它显得更好时才按全深度重搜。代价：偶尔的重搜，和漏掉一个排得靠后的好着的风险。依据是次序好时，好着几乎总在前面。树小得多，值可能与极小化极大不同。',
    },
    labPickOne: '请至少选一个算法', labRunning: '搜索中…', labStopped: '已停止。', labAttackNote: '攻击力：被攻击棋子价值的十分之一计给走棋方，百分之一计给另一方（它不能先吃），所以对称的局面里两边也不相等：这是走棋方的先手之利。', labLimitNodes: (n) => `未完成（${n} 节点上限）`, labLimitTime: (s) => `未完成（${s} 秒上限）`, labSum: '合计', labUnfinished: '未完成',
    labTerm: '项', labDiff: '红−黑', lab: '搜索实验室',
    codes: {
      empty: '那里没有棋子', not_your_piece: '那不是你的棋子', own_piece: '不能吃自己的棋子',
      same_square: '棋子必须移动', in_check: '正被将军，这步棋解不了将',
      generals_facing: '双将不能照面', exposes_general: '这步棋会让自己的将帅被吃',
      general_move: '将帅只能在九宫内直走一步', advisor_move: '士只能在九宫内斜走一步',
      elephant_river: '象不能过河', elephant_eye: '塞象眼', elephant_move: '象走田字',
      horse_leg: '蹩马腿', horse_move: '马走日字', blocked: '路线被挡住了',
      chariot_move: '车只能直走', cannon_screen: '炮吃子必须隔一个子（炮架）',
      cannon_move: '炮只能直走', soldier_move: '兵卒只能向前，过河后可以横走',
      not_your_turn: '请等电脑走棋', game_over: '棋局已经结束', stale: '棋局已变化，请刷新',
      nothing_to_undo: '没有可悔的棋', nothing_to_redo: '没有可还原的棋', busy: '电脑正在思考',
      not_over: '棋局结束后才能复盘', nothing_to_review: '没有可复盘的着法',
      no_opponent: '本局没有电脑对手', unreadable: '无法识别这步棋', offline: '无法连接到服务器',
      engine_failed: '引擎出错，请重试',
      no_such_move: '棋谱中没有这步棋', in_main_line: '这步棋在主线上，不是变着', already_first: '这个变着已经是第一个',
      too_deep: '变着嵌套太深', too_many_moves: '棋谱中的着法太多',
      main_line_is_the_game: '主线就是实战对局，不能改动：请“从此局面与电脑对弈”或在分析棋盘上研究',
      no_review: '没有已完成的复盘', no_comment_before: '只有变着的第一步前面可以加注释', bad_glyph: '无效的符号', comment_too_long: '注释太长',
      fen_no_general: '局面无效：缺少将帅', fen_too_many: '局面无效：某种棋子超过了一方的数量',
      fen_general_palace: '局面无效：将帅必须在九宫内', fen_unreachable: '局面无效：有棋子在它永远到不了的位置',
      fen_generals_facing: '局面无效：双将照面', fen_opponent_in_check: '局面无效：不走棋的一方正被将军',
      fen_syntax: 'FEN 格式错误', fen_game_over: '不能从这个局面开局：棋局已经结束',
      disk_full: '磁盘已满', disk_read_only: '数据目录不可写', disk_error: '磁盘出错',
      site_disk_full: '浏览器给本网站的存储空间已满：删除几盘旧棋局再试', site_disk_read_only: '浏览器不允许本网站保存棋局',
      site_disk_error: '浏览器没能保存棋局',
      other_tab: '棋局已在本网站的另一个标签页或窗口中打开：请在那里下棋，或关闭它，本页随后接手',
      too_long: '棋局已达到最长步数', timeout: '请求超时', paused: '计时已暂停，请先继续', no_offer: '电脑没有提议和棋',
      no_clock: '本局不计时',
      handicap_side: '让先时受让的一方执红先走：电脑让先请选执红，你让先请选执黑', lab_depth: '这个算法不能搜这么深', cancelled: '已停止',
    },
    unsaved: (why) => `未能保存：${why}。棋局保持原样，这一步没有走。请腾出磁盘空间或检查数据目录，然后点“重试”。`,
    unsavedComputer: (why) => `电脑的着法未能保存：${why}。请腾出磁盘空间或检查数据目录，然后点“重试”，电脑会重新走棋。`,
    retry: '重试', dismiss: '关闭',
    handicap: '让子', hcNone: '不让子', hcHorse: '让单马', hcTwoHorses: '让双马', hcChariot: '让单车',
    hcChariotHorse: '让车马', hcFirstMove: '让先', hcGiver: '让子方',
    keepReview: '把复盘结果写入棋谱（符号与变着）', commentBefore: '变着前的注释', commentBeforeHint: '变着开始前的注释…', commentStartHint: '对全局的注释…', comment: '注释', commentHint: '为这步棋写注释…', promote: '升为主线', moveUp: '上移变着', deleteLine: '删除变着',
    deleteFrom: '删除此后着法', addLine: '把这条变化加入棋谱', glyphNone: '无', evalGlyph: '形势',
    glyphNames: { 10: '均势', 13: '形势不明', 14: '红方稍优', 15: '黑方稍优', 16: '红方占优', 17: '黑方占优', 18: '红方胜势', 19: '黑方胜势' },
    continueHere: '从此局面与电脑对弈', acceptDraw: '同意和棋', computerOffersDraw: '电脑提议和棋：点“同意和棋”接受',
    computerResigns: '电脑认输', confirmDelete: '确定删除这盘棋吗？',
    pause: '暂停', resume: '继续', timeControl: '计时', tcNone: '不计时', tc5: '5 分钟 + 每步 3 秒',
    tc10: '10 分钟 + 每步 5 秒', tc15: '15 分钟 + 每步 10 秒', tc20: '20 分钟，之后 30 秒读秒',
    tc30: '30 分钟，之后 60 秒读秒', tcCustom: '自定义…', tcMinutes: '局时（分钟）',
    tcIncrement: '每步加时（秒）', tcByoyomi: '读秒（秒）', tcComputer: '电脑的用时',
    tcSame: '相同', tcHalf: '一半', tcQuarter: '四分之一', tcDouble: '两倍',
    clockThenByoyomi: (s) => `之后读秒 ${s} 秒`, clockInByoyomi: (s) => `读秒：每步 ${s} 秒`,
    clockIncrement: (s) => `每步加 ${s} 秒`,
    tcInvalid: '计时无效：时间不能为负，局时和读秒不能都为零，每项最多 600。',
    drawAccepted: '电脑同意和棋', drawDeclined: '电脑拒绝和棋', drawOffered: '已提出和棋…',
    hintIs: (m) => `提示：${m}`, askingHint: '正在寻找好棋…',
    confirmResign: '确定认输吗？', deleteGame: '删除', openGame: '打开', noGames: '还没有棋局',
    plies: (n) => `${n} 步`, ongoing: '进行中', current: '当前',
    depth: (d) => `深度 ${d}`, nps: (n) => `${n} 节点/秒`, nodes: (n) => `${n} 节点`,
    bookMove: '开局库着法',
    mateIn: (side, n) => `${side}${n} 步杀`,
    reviewing: (a, b) => `分析中 ${a}/${b}`, reviewDone: '分析完成',
    marks: { inaccuracy: '欠佳', mistake: '失误', blunder: '败着' },
    better: (m, c) => (c ? `更好：${m}（${pawns(c.suggested)}，本着 ${pawns(c.played)}，同为 ${c.depth} 层）` : `更好：${m}`),
    summaryFor: (side) => `${side}：`,
    took: (ms) => duration(ms, '秒'), lines: '线路数', bookTitle: '开局库', bookWeight: (w) => `权重 ${w}`, reviewDepth: '复盘深度', reviewQuick: '快速', reviewNormal: '标准', reviewDeep: '深入',
    legalPosition: (n) => `✓ 合法局面（${n} 种走法）`,
    tbWin: (n, m) => `残局库：胜，${n} 步杀（${m}）`,
    tbLoss: (n, m) => (n ? `残局库：负，${n} 步被杀（${m}）` : `残局库：负（${m}）`),
    tbDraw: (m) => `残局库：和（${m}）`,
    tbNone: (m) => `残局库中没有 ${m}`,
    tbLate: '，但六十回合无吃子可能先判和',
    tbMoveWin: (n) => `${n} 步杀`,
    tbMoveLoss: (n) => (n ? `${n} 步被杀` : '负'),
    tbMoveDraw: '和',
    noGameHere: (title, reason) => `不能从这个局面开局，棋局已经结束：${title}（${reason}）`, copied: '已复制', loaded: '已载入棋局',
    alreadyLoaded: '这个文件已经载入过，打开的是当时的那盘棋',
    pgnError: '无法读取该 PGN', fenError: '局面无效',
  },
  en: {
    updateReady: 'A new version is ready.', updateNow: 'Update',
    unreadableGames: (n) => `${n} stored game${n === 1 ? '' : 's'} could not be read; left in the browser's storage as they are, not listed.`,
    title: 'Xiangqi', games: 'Games', theme: 'Light / dark', sound: 'Sound', board: 'Board',
    piecesAsPictograms: 'Pieces as pictograms', piecesAsCharacters: 'Pieces as Chinese characters',
    newGame: 'New game', undo: 'Undo', redo: 'Redo', hint: 'Hint', flip: 'Flip', offerDraw: 'Offer draw',
    resign: 'Resign', review: 'Review', level: 'Level', moves: 'Moves', notation: 'Notation',
    first: 'First move', prev: 'Previous move', next: 'Next move', last: 'Current position',
    thinking: 'Engine thinking', reviewTitle: 'Game review', fenPgn: 'FEN / PGN', savePgn: 'Save PGN',
    loadPgn: 'Load PGN / XQF', editor: 'Set up position', youPlay: 'You play', red: 'Red', black: 'Black',
    both: 'Both sides (analysis)', cancel: 'Cancel', start: 'Start', close: 'Close', ok: 'OK',
    savedIn: 'Every game is saved as PGN in the data folder after every move.',
    currentFen: 'Current position (FEN)', currentPgn: 'This game (PGN)', copy: 'Copy',
    pasteHere: 'Paste a FEN or a PGN to start from it', loadThis: 'Start from this', toMove: 'To move',
    startPos: 'Start position', clear: 'Clear', analyseHere: 'Analyse', playBlack: 'Play Black',
    playRed: 'Play Red',
    levelName: ['Beginner', 'Novice', 'Casual', 'Club', 'Intermediate', 'Advanced', 'Strong', 'Expert', 'Master', 'Grandmaster'],
    you: 'You', computer: 'Computer', player: 'Player', levelN: (n) => `level ${n}`,
    turnRed: 'Red to move', turnBlack: 'Black to move', yourTurn: 'your turn', thinkingNow: 'the computer is thinking…',
    pausedNow: 'paused: press Resume to play on',
    checkNow: 'Check!', viewing: (label, total) => `Viewing ${label} of ${total} — press End to return`,
    redWins: 'Red wins', blackWins: 'Black wins', draw: 'Draw', youWin: 'You win!', youLose: 'You lose',
    reasons: {
      checkmate: 'checkmate', stalemate: 'stalemate (no legal move)', perpetual_check: 'perpetual check loses',
      perpetual_chase: 'perpetual chase loses', repetition: 'repetition', no_capture_limit: '60 moves without a capture',
      insufficient_material: 'no attacking pieces left', resignation: 'resignation', agreement: 'agreed draw',
      timeout: 'lost on time', timeout_against_bare_material: 'time ran out, but the other side cannot mate',
      illegal_move: 'illegal move',
    },
    resultOnly: 'the result as the record gives it, without a reason',
    puzzles: 'Puzzles', puzzlesTitle: 'Puzzles', puzzleHint: 'Hint', puzzleRetry: 'Retry',
    puzzleShowSolution: 'Solution', puzzleNext: 'Next', puzzleTheme: 'Theme', puzzleAnyTheme: 'All themes',
    puzzleRecord: 'My record', puzzleRating: 'Puzzle rating', puzzleGoalMate: (n) => `mate in ${n}`,
    puzzleGoalMaterial: (n) => `win material in ${n} ${n === 1 ? 'move' : 'moves'}`,
    puzzleGoalDraw: (n) => `hold the draw for ${n} ${n === 1 ? 'move' : 'moves'}`,
    puzzleGoalWin: (n) => `keep the win for ${n} ${n === 1 ? 'move' : 'moves'}`,
    puzzleWrongDraw: 'Not that: this move does not hold the draw.',
    puzzleRatingOf: (r) => `rated ${r}`,
    puzzleSeen: 'You have tried this one before: it is not rated again.', puzzleYourMove: 'Your move.',
    puzzleChecking: 'The engine checks the move…', puzzleWrong: 'Not that: this move does not win.',
    puzzleRefutation: 'The answer:', puzzleSolved: 'Solved!',
    puzzleSolvedHelped: 'Solved (with a hint or after a wrong move: not counted as solved).',
    puzzleSolutionWas: 'Solution:', puzzleRight: 'Right!', puzzleRightGoOn: 'Right! Go on.',
    puzzleHintPiece: 'Hint: move this piece (the puzzle no longer counts as solved).',
    puzzleHintMove: 'Hint: play this move.', puzzleShown: 'This is the solution.',
    puzzleRetryNote: 'Once more (not rated).',
    puzzleCounts: (s, a, n) => `${s} solved of ${a} tried (${n} puzzles)`, puzzleUnrated: 'not rated',
    theme_mate: 'Mate', theme_material: 'Win material', theme_fork: 'Fork', theme_pin: 'Pin',
    theme_discoveredAttack: 'Discovered attack', theme_doubleCheck: 'Double check',
    theme_sacrifice: 'Sacrifice', theme_trappedPiece: 'Trapped piece',
    theme_doubleCannonMate: 'Double cannon mate', theme_horseCannonMate: 'Horse and cannon mate',
    theme_smotheredMate: 'Smothered mate', theme_facingGenerals: 'Facing generals',
    theme_endgame: 'Endgame', theme_oneMove: 'One move', theme_short: 'Two moves',
    theme_long: 'Three moves', theme_veryLong: 'Four moves or more',
    theme_classic: 'Classic composition', theme_draw: 'Hold the draw',
    labTitle: 'Search lab', labBack: 'Play', labSetup: 'Position and settings', labPosition: 'Position',
    labFromGame: "the current game's position", labFromStart: 'the start position', labFromFen: 'a FEN', labFen: 'FEN',
    labDepth: 'Depth', labEvaluation: 'Evaluation', labEvalSimple: 'simple evaluation', labEvalEngine: "engine's evaluation",
    labAlgorithms: 'Algorithms', labRun: 'Run', labCancel: 'Stop', labResults: 'Results', labAlgorithm: 'algorithm',
    labNodes: 'nodes', labLeaves: 'leaves', labCutoffs: 'cutoffs (first move)', labTableHits: 'table hits',
    labTime: 'time', labValue: 'value', labBest: 'best move', labPv: 'principal variation', labTree: 'Search tree',
    labTreeHelp: 'Each row is a move: its α–β window and value are for the side that played it (in soldiers). ✂ marks a move that caused a cutoff; the greyed moves after it were pruned by it. Click a row to see its position, and again to open its replies.',
    labLeft: 'algorithm on the left', labRight: 'algorithm on the right', labBuildTree: 'Build trees', labEvalTitle: 'Evaluation, term by term',
    labChartNodes: 'nodes (log scale)', labChartTime: 'time (ms)', labCutoff: '✂ cutoff',
    labMateIn: (n) => `mates in ${n}`, labMatedIn: (n) => `mated in ${n}`,
    labPrunedBy: (m, iccs) => `${iccs}: pruned by the cutoff of ${m}`,
    labTreeStats: (nodes, cuts, v) => `${nodes} nodes, ${cuts} cutoffs, root value ${v}`,
    labTruncated: (n) => `only the first ${n} nodes recorded`, labAfter: (line) => `after ${line}`, labRoot: 'the root position',
    labEngineTotal: (phase, full, scale, tempo, total) => `phase ${phase}/${full}, scale ${scale}/64, tempo ${tempo}: total for the side to move ${total}`,
    labSimpleTotal: (total) => `total for the side to move ${total}`,
    labNetworkTotal: (units, total) => `the network (built in, ${units} units a side; a network has no terms): total for the side to move ${total}`, labMinimal: (d, n) => `Knuth and Moore's minimal tree at depth ${d}: ${n} leaves`,
    labAboutTitle: 'What each algorithm does',
    labStepEnter: (at, a, b) => `Enter ${at ? `the position after ${at}` : 'the root'}: window (α, β) = (${a}, ${b})`,
    labStepLeaf: (v) => `A leaf (or no move left): evaluated ${v} for the side to move`, labStepBack: (m, v) => `${m} searched: ${v} for us`,
    labStepBest: (m, v) => `Best so far: ${m}, ${v}`, labStepAlpha: (v) => `α raised to ${v}`,
    labStepCutoff: (m, best, beta, n) => `Cutoff: ${m} is worth ${best}, at least β = ${beta}; the opponent will not allow this position, so the other ${n} moves are not searched`,
    labStepReturn: (v) => `Return ${v}`,
    labStepResearch: (at, a, b) => `Search ${at} again: the null window only said that it beats α; now the full window (${a}, ${b}) finds its value`,
    labStepScout: (m, v, a) => `The null-window search of ${m}: at least ${v}, better than α = ${a}, so it is searched again`,
    labStepTable: (v) => `The transposition table answers: ${v} (this position was searched to this depth before)`,
    labResearchMark: '↻ again', labTableMark: 'table',
    labStepStart: 'Back to the start', labStepBackBtn: 'One step back', labStepForward: 'One step forward', labStepNextCut: 'To the next cutoff', labStepPlay: 'Play / pause',
    labStepSpeed: 'Speed', labSpeed_slow: 'slow', labSpeed_normal: 'normal', labSpeed_fast: 'fast',
    labStepNode: 'node', labStepAlphaCol: 'α', labStepBetaCol: 'β', labStepBestCol: 'best so far', labStepTogether: 'Step both trees together',
    labTreeView: 'How the trees are shown', labAsList: 'as a list', labAsPicture: 'as a picture', labPicture: 'the search tree as a picture',
    labZoomIn: 'Zoom in', labZoomOut: 'Zoom out', labZoomFit: 'The whole tree', labZoomActual: 'Actual size', labPictureCut: (n) => `✂ ${n} not searched`,
    labLimitsNote: (s, n) => `Limits: a run searches at most ${s} s, each algorithm at most ${n} nodes; one that reaches a limit is marked unfinished.`,
    labTreeLimitNote: (n) => `A tree keeps at most ${n} nodes; a larger search records its first ${n} (its values and cutoffs still right), and the page says so.`,
    labSweep: 'Nodes and time by depth', labElo: 'What a ply is worth in Elo', labSweepNodes: 'nodes (log scale) by depth', labSweepTime: 'time (log scale) by depth',
    labEloTitle: 'the engine at each fixed depth: Elo over depth 1 (95 % error)',
    labEloNote: 'Measured: the engine (its full search) at fixed depth N against N + 1, 200 games a pair, 100 self-play openings each played twice with the colours swapped; the steps added up from depth 1. The data and commands are in docs/LAB.md, "Elo per depth".',
    labProgress: (name, i, n, d, nodes, nps, s) => `Searching ${name} (${i} of ${n}, depth ${d}): ${nodes} nodes, ${nps} nodes/s, ${s} s`,
    labNotRun: 'not run',
    labLessons: 'Lessons', labHorizon: 'The horizon effect', labDepth3: 'depth 3', labDepth4: 'depth 4', labSwing: 'swing',
    labHorizonText: 'The start position, the simple evaluation. Alpha-beta that stops at the depth swings by several pawns between depths 3 and 4: when the last move is a capture the search stops and evaluates, and the recapture lies beyond its horizon, unseen. A quiescence search goes on past the depth with captures only until the position is quiet, and the two depths then agree within a fraction of a pawn. Its value is not minimax\'s, on purpose: it looks further.',
    labAbout: {
      minimax: 'Minimax: Red takes the largest value, Black the smallest, every move searched to the depth; nothing pruned. Cost: b^d leaves (b is about 44 at the start), times 44 for each ply. Why it is right: by definition, the leaves\' values are carried up by max and min.',
      negamax: 'Negamax: the same tree, written so that each side takes the largest of its replies\' values negated; shorter code. Cost: as minimax. Why: the opponent\'s minimum is our maximum negated, max(a, b) = −min(−a, −b).',
      alphabeta: 'Alpha-beta (fail-soft): once one reply refutes a move, its other replies are not searched (a cutoff); moves in generation order. Cost: about 2·b^(d/2) leaves at best (Knuth and Moore\'s minimal tree), minimax\'s at worst: it all depends on the order. Why: values outside the window (α, β) cannot change the root\'s choice; a pruned branch could only prove itself worse than one already found.',
      'alphabeta-mvvlva': 'Alpha-beta with captures first: the most valuable victim first and, among those, the least valuable attacker (MVV-LVA). Cost: a cheap sort; good moves first bring cutoffs early and a far smaller tree. The value is minimax\'s: only the order changes.',
      'alphabeta-history': 'Alpha-beta with the history heuristic: moves that caused a cutoff (or were best) elsewhere are tried first, nearer the root counting more (2^depth). Cost: a 90 × 90 table. The value is minimax\'s: only the order changes; a good move in one position is often good in its siblings, so cutoffs come earlier.',
      'alphabeta-tt': 'Alpha-beta with a transposition table: a position reached again by another move order is answered from the table (an exact value or a bound) when it was searched deep enough, else its stored best move is tried first. Cost: memory (about 16 bytes an entry) and the look-ups. The value is minimax\'s: a stored value is used only when its depth and window suffice.',
      'pvs-tt-history': 'NegaScout (PVS) with the table and the history heuristic: the first move with the full window, the others with a null window (α, α+1), searched again only when one proves better. Cost: the re-searches, rare when the order is good. Why: the null window only asks "better than α?"; a move that is not needs no exact value, one that is gets it from the full window.',
      'pvs-id-aspiration': 'The same by iterative deepening (depth 1, 2, …), each depth with an aspiration window of ±0.5 soldier around the last one\'s value. Cost: the shallower searches again, and a re-search when the window fails; the table and history make the deep search\'s order better, so the total is often smaller. The value is minimax\'s: a failed window is widened and searched again.',
      engine: 'The engine\'s own search to the same depth (one thread, no book): quiescence, extensions and pruning, so its value is not minimax\'s. Its cost and gain are in the tree\'s shape: at the same depth it sees further, and may prune wrongly.',
      pvs: 'Ablation: NegaScout alone, moves in generation order: what the null window brings by itself.',
      'pvs-tt': 'Ablation: NegaScout with the table only.',
      'pvs-history': 'Ablation: NegaScout with the history heuristic only.',
      'alphabeta-killer': 'One of the engine\'s ideas, added to alpha-beta with captures first: killer moves. The two quiet moves that last caused a cutoff at the same ply are tried right after the captures. Cost: two slots a ply. Only the order changes, so the value is minimax\'s; the reason it works: the move that refutes one sibling often refutes the next.',
      'alphabeta-qs': 'Quiescence search: at the depth, instead of evaluating at once, captures only are searched (every answer when in check) until the position is quiet; the side to move may also stand pat on the evaluation. Cost: a tree of captures after each leaf. It sees captures beyond the horizon, so its value differs from minimax\'s on purpose: it removes the horizon effect (a capture counted, its recapture unseen). Captures in generation order.',
      'alphabeta-qs-mvvlva': 'The same, the quiescence search\'s captures in MVV-LVA order: the capture most likely to cut first, a smaller capture tree.',
      'alphabeta-nullmove': 'Null-move pruning: first the opponent moves twice (we pass) with two plies less; if even then it cannot get below beta, a real move would do better still, so the node is cut. Cost: one shallow search; the gain, a whole subtree. It rests on "having a move is better than passing", false in zugzwang, so it is not tried in check nor with only pawns, advisors and elephants. Its value may differ from minimax\'s.',
      'alphabeta-lmr': 'Late-move reductions: quiet moves that do not give check, after the first three, are searched a ply less deep first, and at full depth only if they then look better. Cost: the occasional re-search, and the risk of missing a good move ordered late. It rests on good ordering putting the good moves first. A much smaller tree; its value may differ from minimax\'s.',
    },
    labPickOne: 'Choose at least one algorithm', labRunning: 'Searching…', labStopped: 'Stopped.', labAttackNote: 'attack: a tenth of each attacked piece\'s value for the side to move, a hundredth for the other side (it cannot take first), so even a symmetric position scores the two sides differently: it is the move\'s bonus.', labLimitNodes: (n) => `unfinished (the ${n}-node limit)`, labLimitTime: (s) => `unfinished (the ${s} s limit)`, labSum: 'sum', labUnfinished: 'unfinished',
    labTerm: 'term', labDiff: 'red−black', lab: 'Search lab',
    codes: {
      empty: 'there is no piece there', not_your_piece: 'that is not your piece',
      own_piece: 'you cannot capture your own piece', same_square: 'the piece must move',
      in_check: 'you are in check and this move does not save the general',
      generals_facing: 'the generals may not face each other',
      exposes_general: 'this move would leave your general open to capture',
      general_move: 'the general moves one point straight inside the palace',
      advisor_move: 'the advisor moves one point diagonally inside the palace',
      elephant_river: 'the elephant may not cross the river', elephant_eye: "the elephant's eye is blocked",
      elephant_move: 'the elephant moves two points diagonally', horse_leg: "the horse's leg is blocked",
      horse_move: 'the horse moves one point straight, then one diagonally', blocked: 'the way is blocked',
      chariot_move: 'the chariot moves along lines', cannon_screen: 'a cannon captures by jumping over exactly one piece',
      cannon_move: 'the cannon moves along lines',
      soldier_move: 'a soldier moves forward, and sideways after crossing the river',
      not_your_turn: "wait for the computer's move", game_over: 'the game is over',
      stale: 'the game changed; reload the page', nothing_to_undo: 'no move to take back',
      nothing_to_redo: 'no move to replay', busy: 'the computer is thinking',
      not_over: 'the review is for finished games', nothing_to_review: 'no move to review',
      no_opponent: 'there is no computer opponent in this game', unreadable: 'that move cannot be read',
      offline: 'the server cannot be reached',
      engine_failed: 'the engine failed; try again',
      no_such_move: 'no move of the game is there', in_main_line: 'that move is in the main line, not a variation',
      already_first: 'that variation is the first one already', too_deep: 'variations nest too deeply',
      too_many_moves: 'the game holds too many moves',
      main_line_is_the_game: 'the main line is the game as played: continue from here on a board of your own to change it',
      no_review: 'there is no finished review to keep', no_comment_before: 'only a variation\'s first move has a comment before it', bad_glyph: 'not a glyph',
      comment_too_long: 'the comment is too long',
      disk_full: 'the disk is full', disk_read_only: 'the data folder cannot be written',
      site_disk_full: 'the browser\'s storage for this site is full: delete a few old games and try again',
      site_disk_read_only: 'the browser does not let this site keep games', site_disk_error: 'the browser could not keep the game',
      other_tab: 'the games are open in another tab or window of this site: play there, or close it and this page takes them over',
      disk_error: 'the disk reported an error', too_long: 'the game has reached the most plies a game may have',
      timeout: 'the request took too long', paused: 'the clock is paused: resume first', no_offer: 'the computer has not offered a draw',
      fen_no_general: 'invalid position: a general is missing', fen_too_many: 'invalid position: too many pieces of a kind',
      fen_general_palace: 'invalid position: a general must stay in its palace',
      fen_unreachable: 'invalid position: a piece stands where it can never go',
      fen_generals_facing: 'invalid position: the generals face each other',
      fen_opponent_in_check: 'invalid position: the side not to move is in check', fen_syntax: 'this FEN cannot be read',
      fen_game_over: 'no game can start from this position: it is over',
      no_clock: 'this game has no clock',
      handicap_side: 'with the first move given, the weaker side plays Red and moves first: choose Red when the computer gives it, Black when you do', lab_depth: 'this algorithm cannot search that deep', cancelled: 'stopped',
    },
    unsaved: (why) => `Not saved: ${why}. The game is as it was before this change. Free some disk space or fix the data folder, then press Retry.`,
    unsavedComputer: (why) => `The computer's move was not saved: ${why}. Free some disk space or fix the data folder, then press Retry and the computer moves again.`,
    retry: 'Retry', dismiss: 'Dismiss',
    handicap: 'Handicap', hcNone: 'none', hcHorse: 'a horse (让单马)', hcTwoHorses: 'both horses (让双马)',
    hcChariot: 'a chariot (让单车)', hcChariotHorse: 'chariot and horse (让车马)', hcFirstMove: 'the first move (让先)',
    keepReview: 'Keep the marks in the game (glyphs and variations)', commentBefore: 'Comment before the variation', commentBeforeHint: 'A comment before this variation…', commentStartHint: 'A comment on the game, before its first move…', comment: 'Comment', commentHint: 'A comment on this move…', promote: 'Promote', moveUp: 'Move up', deleteLine: 'Delete variation',
    deleteFrom: 'Delete from here', addLine: 'Add this line to the game', glyphNone: 'none', evalGlyph: 'Position',
    glyphNames: { 10: 'equal', 13: 'unclear', 14: 'Red slightly better', 15: 'Black slightly better', 16: 'Red better', 17: 'Black better', 18: 'Red winning', 19: 'Black winning' },
    hcGiver: 'Given by', continueHere: 'Continue against the computer from here', acceptDraw: 'Accept draw',
    computerOffersDraw: 'The computer offers a draw: press Accept draw to agree', computerResigns: 'The computer resigns',
    confirmDelete: 'Delete this game?',
    pause: 'Pause', resume: 'Resume', timeControl: 'Clock', tcNone: 'No clock', tc5: '5 min + 3 s a move',
    tc10: '10 min + 5 s a move', tc15: '15 min + 10 s a move', tc20: '20 min, then 30 s byo-yomi',
    tc30: '30 min, then 60 s byo-yomi', tcCustom: 'Custom…', tcMinutes: 'Game time (min)',
    tcIncrement: 'Increment (s)', tcByoyomi: 'Byo-yomi (s)', tcComputer: "Computer's time",
    tcSame: 'the same', tcHalf: 'half', tcQuarter: 'a quarter', tcDouble: 'double',
    clockThenByoyomi: (s) => `then ${s} s a move`, clockInByoyomi: (s) => `byo-yomi: ${s} s a move`,
    clockIncrement: (s) => `+${s} s a move`,
    tcInvalid: 'This clock cannot be played: no negative times, game time or byo-yomi above zero, each at most 600.',
    drawAccepted: 'The computer accepts the draw', drawDeclined: 'The computer declines the draw',
    drawOffered: 'Draw offered…', hintIs: (m) => `Hint: ${m}`, askingHint: 'Looking for a good move…',
    confirmResign: 'Resign this game?', deleteGame: 'Delete', openGame: 'Open', noGames: 'No games yet',
    plies: (n) => (n === 1 ? '1 ply' : `${n} plies`), ongoing: 'in progress', current: 'current',
    depth: (d) => `depth ${d}`, nps: (n) => `${n} nodes/s`, nodes: (n) => `${n} nodes`,
    bookMove: 'opening book move',
    mateIn: (side, n) => `${side} mates in ${n}`,
    reviewing: (a, b) => `analysing ${a}/${b}`, reviewDone: 'done',
    marks: { inaccuracy: 'inaccuracy', mistake: 'mistake', blunder: 'blunder' },
    better: (m, c) => (c ? `better: ${m} (${pawns(c.suggested)} against ${pawns(c.played)} for the move played, both at depth ${c.depth})` : `better: ${m}`),
    summaryFor: (side) => `${side}: `,
    took: (ms) => duration(ms, 's'), lines: 'Lines', bookTitle: 'Opening book', bookWeight: (w) => `weight ${w}`, reviewDepth: 'Review depth', reviewQuick: 'quick', reviewNormal: 'normal', reviewDeep: 'deep',
    legalPosition: (n) => `✓ legal position (${n} legal moves)`,
    tbWin: (n, m) => `Tablebase: win, mate in ${n} (${m})`,
    tbLoss: (n, m) => (n ? `Tablebase: loss, mated in ${n} (${m})` : `Tablebase: loss (${m})`),
    tbDraw: (m) => `Tablebase: draw (${m})`,
    tbNone: (m) => `No table for ${m}`,
    tbLate: ', but the 120-ply no-capture rule may draw it first',
    tbMoveWin: (n) => `mate in ${n}`,
    tbMoveLoss: (n) => (n ? `mated in ${n}` : 'lost'),
    tbMoveDraw: 'draw',
    noGameHere: (title, reason) => `No game can start here, it is over: ${title} — ${reason}`, copied: 'Copied', loaded: 'Game loaded',
    alreadyLoaded: 'This file is already among your games: its game is opened, not a copy',
    pgnError: 'This PGN cannot be read', fenError: 'Invalid position',
  },
};

function initialLanguage() {
  const param = new URLSearchParams(location.search).get('lang');
  if (param === 'zh' || param === 'en') return param;
  const saved = settings.lang();
  if (saved) return saved;
  return (navigator.language || 'en').toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

let lang = initialLanguage();

export function language() {
  return lang;
}

/** The text for `key` (a function result when the text takes arguments). */
export function t(key, ...args) {
  const value = TEXT[lang][key] ?? TEXT.en[key] ?? key;
  return typeof value === 'function' ? value(...args) : value;
}

/** A reason code's text, or the server's English message. */
export function reasonText(code, fallback) {
  // On the static site games are kept in the browser's storage, not on a disk.
  const key = onSite && /^disk_/.test(code || '') ? `site_${code}` : code;
  return TEXT[lang].codes[key] || fallback || code;
}

// Refusals of a position whose kind alone does not say where the fault is: the server's detail
// (in English) follows the translated kind.
const FEN_DETAILED = [
  'fen_syntax', 'fen_no_general', 'fen_too_many', 'fen_general_palace', 'fen_unreachable', 'fen_game_over',
];

/** Why the server refused a position: its own words in English (they name the fault); in
 * Chinese the kind of fault, with the server's detail where the kind does not name it. */
export function fenRefusal(code, message) {
  const detail = (message || '').replace(/^invalid FEN: /, '');
  const kind = TEXT[lang].codes[code];
  if (lang === 'en' || !kind) return detail || kind || code;
  return FEN_DETAILED.includes(code) && detail ? `${kind}（${detail}）` : kind;
}

/** Who won, or a draw. */
export function outcomeTitle(outcome) {
  if (!outcome.winner) return t('draw');
  return outcome.winner === 'red' ? t('redWins') : t('blackWins');
}

/** An end-of-game reason's text; a loaded record's result may come without one. */
export function endReason(reason) {
  if (!reason) return t('resultOnly');
  return TEXT[lang].reasons[reason] || reason;
}

export function setLanguage(value) {
  lang = value;
  settings.setLang(value);
  applyTexts();
}

export function applyTexts(root = document) {
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  for (const node of root.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll('[data-i18n-title]')) node.title = t(node.dataset.i18nTitle);
  for (const node of root.querySelectorAll('[data-i18n-aria]')) node.setAttribute('aria-label', t(node.dataset.i18nAria));
}
