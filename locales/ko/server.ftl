### Messages only the daemon formats: kept out of the page's WebAssembly.

# The 401 page, the refused-form page and the exports (rendered by the daemon)
unauthorized-title = 먼저 이 기기를 연결하세요
unauthorized-body = 이 Hark 페이지에는 누군가의 AI 에이전트가 보낸 질문이 담겨 있어, 그 사람의 컴퓨터나 연결된 기기에서만 열립니다.
unauthorized-wrong = 이 연결 링크가 잘못되었거나 더 이상 유효하지 않습니다. 연결 코드가 바뀌었습니다.
unauthorized-too-many = 이 기기에서 잘못된 코드가 너무 많이 들어왔습니다. 1분 뒤에 다시 시도하세요.
unauthorized-how = 연결하려면 Hark가 실행 중인 컴퓨터에서 설정 → “휴대폰으로 답하기”를 열어 QR 코드를 스캔하거나, 그 컴퓨터에서 “hark url”을 실행하세요.
bad-request-title = Hark가 이 양식을 읽을 수 없습니다
export-title = 에이전트가 보낸 질문
export-asked = { $when }에 질문함
export-by = 보낸 곳: { $client }
export-messages-title = 에이전트에게 보낸 메시지
export-message-waiting = 에이전트 수신 대기 중
export-message-delivered = { $when }에 전달됨
export-images = 이미지 { $count }장 첨부 (이미지 데이터는 JSON 내보내기에 있습니다)

# Pushes to the phone (ntfy)
push-waiting = Hark: 질문이 기다리고 있습니다
push-open = 열기
push-open-on-computer = 답하려면 컴퓨터에서 Hark를 여세요.
push-test = Hark가 이 휴대폰에 연결되었습니다. 에이전트의 질문이 여기에 표시됩니다.
push-session = Hark: 에이전트가 차례를 마쳤거나 당신을 기다리고 있습니다
push-reply = 답장

# How a question ended (pushes and chat messages)
outcome-answered = 답변함: { $answer }
outcome-declined = 건너뜀
outcome-timeout = 답변 없이 시간이 다 되었습니다
outcome-cancelled = 에이전트가 질문을 철회했습니다

# Chat apps: the walk's buttons, tell, reminders, and Telegram's reply prompts
chat-step = 질문 { $step }/{ $count }
chat-tell-sent = { $agent }에게 보냈습니다. 에이전트가 다음에 Hark를 호출할 때 전달됩니다.
chat-tell-empty = /tell 뒤에 메시지를 적어 주세요. 예: /tell 스테이징 데이터베이스를 사용해
chat-tell-nobody = 아직 질문한 에이전트가 없어 전달할 대상이 없습니다.
chat-tell-too-long = 메시지가 너무 깁니다. 4000자 이내로 줄여 주세요.
chat-tell-too-many = 그 에이전트에게 기다리는 메시지가 이미 너무 많습니다. 에이전트가 다음에 Hark에 올 때 받아 갑니다.
chat-tell-failed = Hark가 이 메시지를 저장하지 못했습니다. 다시 보내 주세요.
chat-ticked = 선택함: { $options }
chat-send = 보내기
chat-other = 기타…
chat-answer = 답변 입력…
chat-skip = 건너뛰기
chat-skip-now = 메모 없이 건너뛰기
chat-back = 뒤로
telegram-own-words-prompt = 답변을 입력해 이 메시지에 답장으로 보내 주세요.
telegram-skip-note-prompt = 왜 건너뛰나요? 에이전트에게 남길 메모를 답장으로 보내거나 “메모 없이 건너뛰기”를 누르세요.
telegram-reply-placeholder = 내 답변
chat-declined-note = 건너뜀: { $note }
chat-remind = { $count ->
   *[other] 아직 질문 { $count }개가 답변을 기다리고 있습니다:
}
chat-stale = { $channel ->
        [wechat] 그 답장은 이 질문이 표시되기 전에 쓰여서 사용되지 않았습니다. 질문을 다시 보냅니다:
       *[other] 지난 버튼입니다. 메시지의 현재 버튼을 사용하세요.
    }
chat-closed = 이미 답변되었거나 닫힌 질문입니다.
chat-tick-first = { $channel ->
        [wechat] 항목 번호를 하나 이상 답장하세요.
       *[other] 먼저 하나 이상 선택하거나 “기타…”를 사용하세요.
    }
chat-answer-sent = 답변을 보냈습니다.
chat-skipped = 건너뛰었습니다.
chat-too-long = 답변이 너무 깁니다. 더 짧게 보내 주세요.
chat-not-recorded = Hark가 지금은 기록하지 못했습니다. 잠시 후 다시 시도하세요.
chat-skip-word = 건너뛰기
chat-text-only = Hark는 텍스트만 읽습니다. 번호나 글로 답장하세요.
chat-nothing-waiting = 지금 답을 기다리는 질문이 없습니다.
chat-no-such-option = 그 번호의 항목은 없습니다.
chat-one-option = 이 질문은 하나만 고를 수 있습니다. 번호 하나로 답장하세요.

# WeChat (텍스트 전용: 번호, 글 또는 건너뛰기 단어로 답장)
wechat-recommended = 추천
wechat-how-one = 고를 항목의 번호로 답장하세요.
wechat-how-many = 고를 항목들의 번호로 답장하세요 (예: 1 3).
wechat-how-words = 직접 답을 써도 됩니다.
wechat-how-text = 답을 답장으로 보내세요.
wechat-how-skip = 건너뛰려면 “{ $skip }”라고 답장하세요. 뒤에 이유를 덧붙여도 됩니다.
wechat-more-waiting = 이 질문 다음에 질문 { $count }개가 더 기다리고 있습니다.
wechat-via = { $place ->
    [page] Hark 페이지에서
    [client] 에이전트 자체 창에서
    [rule] 저장한 규칙으로
   *[push] 푸시 알림에서
}
wechat-via-channel = { $channel }에서
wechat-closed-via = { $name }: { $outcome } ({ $place }).
wechat-closed = { $name } — { $outcome }
wechat-answer-sent = 답을 보냈습니다: { $answer }
wechat-skipped = 건너뛰었습니다.
wechat-skipped-note = 건너뛰었습니다: { $note }
wechat-remind = 이 질문이 아직 답을 기다리고 있습니다.

# Claude Code와 Codex의 권한 요청을 Hark에서 묻기 (`hark hook`)
hook-permission = { $tool }을(를) 허용할까요?
# A command shown literally: what stands for long runs of blanks and empty lines, and a cut
literal-blanks = ⟨공백 { $count }개⟩
literal-empty-lines = ⟨빈 줄 { $count }개⟩
literal-cut = ⟨표시하지 않은 { $count }자 더 있음⟩
hook-allow = 허용
hook-deny = 거부
# What Cursor shows the person when a call was denied in Hark
hook-denied = Hark에서 거부했습니다.
# 다른 MCP 서버의 양식을 Hark에서 묻기 (Claude Code의 Elicitation 훅)
hook-elicitation-title = { $server }: { $message }
hook-yes = 예
hook-no = 아니요
hook-leave-empty = 비워 두기
hook-not-number = “{ $typed }”은(는) 숫자가 아닙니다.
hook-not-integer = “{ $typed }”은(는) 정수가 아닙니다.
hook-too-small = 최솟값 { $min }보다 작습니다.
hook-too-large = 최댓값 { $max }보다 큽니다.
hook-too-short = 너무 짧습니다. { $min }자 이상 입력하세요.
hook-too-long = 너무 깁니다. { $max }자 이하로 입력하세요.
hook-too-few = { $min }개 이상 선택하세요.
hook-too-many = { $max }개까지만 선택할 수 있습니다.
hook-not-format = { $format ->
    [email] 이메일 주소가 아닙니다.
    [uri] 완전한 웹 주소가 아닙니다 (예: https://example.com).
    [date] 날짜가 아닙니다. 2026-12-31 형식으로 입력하세요.
   *[date-time] 날짜와 시간이 아닙니다. 2026-12-31T17:00:00Z 형식으로 입력하세요.
}
# 승인을 기다리는 계획 (Claude Code의 ExitPlanMode)
hook-plan-header = 계획
hook-plan-ask = { $agent }이(가) 계획을 세웠고 시작 승인을 기다리고 있습니다.
hook-plan-approve = 승인
hook-plan-keep = 계속 계획하기
# "항상 허용": 에이전트가 제안한 규칙을 저장하기 전에 보여 줌
hook-always-allow = { $rule } 항상 허용
hook-always-mode = 허용하고 { $mode } 모드로 전환
hook-always-kept = 저장 위치: { $place }
hook-always-session = 이 세션이 끝날 때까지
hook-always-allow-call = 항상 허용
hook-always-allow-means = 이번에 허용하고, 앞으로 { $agent }의 똑같은 호출은 Hark가 묻지 않고 허용합니다. Hark 설정에서 취소할 수 있습니다.
hook-always-deny-call = 항상 거부
hook-always-deny-means = 이번에 거부하고, 앞으로 { $agent }의 똑같은 호출은 Hark가 묻지 않고 거부합니다. Hark 설정에서 취소할 수 있습니다.

# Chat apps' reply windows (Slack's and Discord's modals, SPEC §17)
chat-pick = 옵션 선택
chat-answer-title = 내 답변
chat-answer-label = 내 답변 (에이전트에게 전달됩니다)
chat-skip-title = 이 질문 건너뛰기
chat-skip-label = 건너뛰는 이유: 에이전트에게 남길 메모 (선택)
chat-cancel = 취소

# 모든 채팅 앱 공통(채팅 엔진): $app은 앱 이름, $setup은 설정 명령, $channel은 설정에서의 이름
chat-app = { $channel ->
        [slack] Slack
        [discord] Discord
        [feishu] Feishu/Lark
        [telegram] Telegram
       *[wechat] WeChat
    }
chat-test = { $channel ->
        [telegram] Hark가 이 채팅으로 연결되었습니다. 에이전트의 질문이 여기에 표시됩니다.
        [wechat] Hark가 이 WeChat에 연결되었습니다. 에이전트의 질문이 여기에 표시됩니다.
       *[other] Hark가 여기로 연결되었습니다. 에이전트의 질문이 여기에 표시됩니다.
    }
chat-paired = 연결되었습니다. 에이전트의 질문이 여기로 오며, 나만 답할 수 있습니다.
chat-pairing-failed = Hark가 연결 정보를 저장하지 못했습니다. Hark가 실행 중인 컴퓨터를 확인한 뒤 다시 시도하세요.
chat-wrong-code = 코드가 올바르지 않습니다. Hark 설정이나 “{ $setup }”에서 현재 코드를 확인해 { $pair } 뒤에 붙여 보내세요.
chat-expired-code = 코드가 만료되었습니다. Hark 설정이나 “{ $setup }”에서 새 코드를 받으세요.
chat-stranger = 죄송합니다. 이 { $app } 봇은 주인에게만 응답합니다. 내 봇이라면 Hark 설정이나 “{ $setup }”에 표시된 코드를 { $pair } 뒤에 붙여 보내세요.
chat-use-buttons = { $channel ->
        [wechat] 이 질문은 주어진 항목만 받습니다. 번호로 답장하세요.
        [telegram] 질문 아래 버튼을 누르거나, 질문 메시지에 답장해 직접 답을 쓰세요. 에이전트에게 전할 말이 있으면 /tell 뒤에 적어 보내세요.
        [feishu] 질문 카드의 버튼과 양식으로 답하세요. 에이전트에게 전할 말이 있으면 tell 뒤에 적어 보내거나 질문에 답장하세요.
       *[other] 질문 아래 버튼으로 답하세요. 에이전트에게 전할 말이 있으면 tell 뒤에 적어 보내거나 질문에 답장하세요.
    }
chat-unpaired = { $channel ->
        [wechat] Hark가 이 WeChat에서 로그아웃했습니다. 이제 질문이 여기로 오지 않습니다.
       *[other] 여기서 Hark와의 연결이 해제되었습니다. 이제 여기로 질문이 오지 않습니다.
    }
chat-not-yours = 이 봇은 주인에게만 응답합니다.
chat-private-only = 봇은 그룹이 아니라 봇과의 개인 채팅에서 연결하세요.
chat-already-paired = 이 채팅은 이미 연결되어 있습니다. 에이전트의 질문이 여기로 옵니다.

chat-session-reply = { $channel ->
        [wechat] 답하려면 “/tell” 뒤에 내용을 붙여 보내세요.
       *[other] 이 메시지에 답장하면 에이전트에게 전달됩니다.
    }
